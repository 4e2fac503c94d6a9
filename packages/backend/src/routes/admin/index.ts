/**
 * Merchant routes behind an admin credential (admin/access.ts checks it, its scope, and records each write):
 * drift, the quote engine, the upstream budget (upstream-budget.ts), events and their re-sends, payment links here; the ledger's orders (orders.ts), the
 * upstream's list (upstream-orders.ts) and the webhook endpoints (webhook-endpoints.ts) beside; payment links (an upstream order with a name, an internal note and a
 * display amount, to share as a link).
 */
import { randomBytes } from 'node:crypto';
import { $, createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { noteAudit } from '../../admin/audit.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { OutboxEntry } from '../../events/outbox.ts';
import { priceAmount, refuseExcessDecimals } from '../../money.ts';
import { errorResponses, jsonBody, jsonResponse, openApiRoutes } from '../../openapi.ts';
import type { OrderLedger } from '../../orders/ledger.ts';
import { currencyCode } from '../../schemas/codes.ts';
import { isValueRefusal } from '../../upstream/http.ts';
import { adminErrors, adminRoute, dateParam, intParam } from './admin-route.ts';
import { eventStreamRoute, streamEvents } from './event-stream.ts';
import { orderActionRoutes } from './order-actions.ts';
import { ledgerOrderRoutes } from './orders.ts';
import { upstreamBudgetRoutes } from './upstream-budget.ts';
import { upstreamOrderRoutes } from './upstream-orders.ts';
import { webhookEndpointRoutes } from './webhook-endpoints.ts';

export const paymentLinkBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    note: z.string().max(2000).optional(),
    imageUrl: z.url({ protocol: /^https?$/ }).optional(),
    currency: currencyCode,
    amount: priceAmount,
  })
  .superRefine((body, ctx) => refuseExcessDecimals(ctx, 'amount', body.amount, body.currency, 'fiat'));

export const paymentLinkResponse = z.object({
  orderId: z.string().describe("The upstream's order id"),
  link: z.string().describe('The payment page to share'),
  expiresAt: z.string().nullable(),
});

export const adminEventsQuery = z.object({
  orderId: z.string().trim().min(1).max(100).optional(),
  state: z.enum(['pending', 'delivered', 'failed']).optional(),
  limit: intParam(1, 200, 50),
});

const deliveryView = z.object({
  target: z.string(),
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  nextAttemptAt: z.string(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
const eventView = z.object({
  id: z.string(),
  type: z.string(),
  orderId: z.string().nullable(),
  createdAt: z.string(),
  payload: z.record(z.string(), z.unknown()),
  deliveries: z.array(deliveryView),
});
export const adminEventsResponse = z.object({ events: z.array(eventView) });

/** An outbox entry as the admin API shows it (the lease is internal). */
const eventOf = (entry: OutboxEntry): z.output<typeof eventView> => ({
  id: entry.event.id,
  type: entry.event.type,
  orderId: entry.orderId,
  createdAt: entry.createdAt,
  payload: { ...entry.event },
  deliveries: entry.deliveries.map(({ leaseUntil: _lease, history: _history, ...delivery }) => delivery),
});

export const adminDriftResponse = z.object({
  drift: z.array(
    z.object({
      path: z.string(),
      field: z.string(),
      detail: z.string(),
      firstSeenAt: z.string(),
      lastSeenAt: z.string(),
      count: z.number().int(),
    }),
  ),
});

const driftRoute = createRoute({
  ...adminRoute,
  method: 'get',
  path: '/upstream-drift',
  summary: 'Upstream answers seen in a shape the backend had to drop parts of (each kind once, with a count)',
  responses: { 200: jsonResponse(adminDriftResponse, 'Drift seen since start'), ...adminErrors() },
});

export const quoteEngineResponse = z
  .object({
    enabled: z.boolean(),
    derived: z
      .number()
      .int()
      .describe('Quotes derived from a combination’s latest upstream quote, since start'),
    upstream: z.number().int().describe('Quotes the upstream priced for a shopper, since start'),
    derivedWhileUpstreamDown: z.number().int().describe('Derived because the upstream could not answer'),
    busy: z
      .number()
      .int()
      .describe('UPSTREAM_BUSY answers: combinations never priced, with the budget spent'),
    totalChecks: z.number().int().describe('Upstream calls that checked the total of a fiat amount typed'),
    totalCorrections: z.number().int().describe('Of those, the calls that corrected a first one'),
    refreshes: z.number().int(),
    samples: z.number().int().describe('Derived amounts the sampler priced upstream to compare'),
    maxDrift: z.number().describe('Largest relative difference a sample found (0.001 = 0.1 %)'),
    lastDrift: z.number().nullable(),
    driftThreshold: z.number(),
    combinations: z.array(
      z.object({
        key: z.string().describe('side|method|country|fiat|crypto|markup'),
        ageMs: z.number().nullable().describe('Age of the upstream quote it derives from'),
        derived: z.number().int(),
        upstream: z.number().int(),
        upstreamOnly: z
          .boolean()
          .describe('Priced by the upstream only (drift, or a quote the model misfits)'),
        reason: z.string().nullable(),
        drift: z.object({ last: z.number().nullable(), max: z.number(), samples: z.number().int() }),
      }),
    ),
  })
  .meta({ id: 'QuoteEngineStats' });

const quoteEngineRoute = createRoute({
  ...adminRoute,
  method: 'get',
  path: '/quote-engine',
  summary: 'The quote engine: answers by source, drift between derived and upstream quotes, per combination',
  responses: { 200: jsonResponse(quoteEngineResponse, 'Counters since start'), ...adminErrors() },
});

const eventsRoute = createRoute({
  ...adminRoute,
  method: 'get',
  path: '/events',
  summary: 'Fulfilment events sent to your systems, with each delivery’s attempts and last error',
  request: { query: adminEventsQuery },
  responses: { 200: jsonResponse(adminEventsResponse, 'Events, newest first'), ...adminErrors() },
});

const resendRoute = createRoute({
  ...adminRoute,
  method: 'post',
  path: '/events/{id}/resend',
  summary: 'Sends an event again (every delivery of it), now',
  request: { params: z.object({ id: z.string() }) },
  responses: {
    200: jsonResponse(eventView, 'The event, its deliveries pending again'),
    ...adminErrors(),
    ...errorResponses('NOT_FOUND'),
  },
});

export const resendGivenUpBody = z
  .object({
    from: dateParam.optional().describe('Events created at or after this time (ISO or epoch)'),
    to: dateParam.optional().describe('Events created before this time (ISO or epoch)'),
    all: z.literal(true).optional().describe('Every given-up event, whenever created (instead of a range)'),
  })
  .refine((body) => body.all === true || body.from !== undefined || body.to !== undefined, {
    message: 'give a time range (from, to) or all: true',
    path: ['from'],
  })
  .refine((body) => !(body.all && (body.from !== undefined || body.to !== undefined)), {
    message: 'all: true takes no range',
    path: ['all'],
  })
  .refine((body) => body.from === undefined || body.to === undefined || body.to > body.from, {
    message: 'must be after from',
    path: ['to'],
  });

export const resendGivenUpResponse = z
  .object({
    events: z.number().int().describe('Events with a given-up delivery put back to pending'),
    deliveries: z.number().int().describe('Deliveries put back to pending, due now'),
  })
  .meta({ id: 'ResendGivenUp' });

const resendGivenUpRoute = createRoute({
  ...adminRoute,
  method: 'post',
  path: '/events/resend',
  summary: 'Sends again every given-up delivery of the events created in a time range, or of all events',
  request: { body: jsonBody(resendGivenUpBody) },
  responses: {
    200: jsonResponse(resendGivenUpResponse, 'How many were put back'),
    ...adminErrors(),
  },
});

const paymentLinkRoute = createRoute({
  ...adminRoute,
  method: 'post',
  path: '/payment-links',
  summary: 'A payment link: name, internal note, optional image, display currency and amount',
  request: { body: jsonBody(paymentLinkBody) },
  responses: {
    201: jsonResponse(paymentLinkResponse, 'Created'),
    ...adminErrors(),
    ...errorResponses('BAD_REQUEST'),
  },
});

export function adminRoutes(deps: AppDeps, ledger: OrderLedger) {
  const { payments, outbox, clock } = deps;
  return $(openApiRoutes())
    .openapi(driftRoute, (c) => c.json({ drift: deps.ramp.drift() }, 200))
    .openapi(quoteEngineRoute, (c) => c.json(deps.quotes.stats(), 200))
    .openapi(eventsRoute, async (c) => {
      const { orderId, state, limit } = c.req.valid('query');
      const entries = await outbox.list({
        limit,
        ...(orderId ? { orderId } : {}),
        ...(state ? { state } : {}),
      });
      return c.json({ events: entries.map(eventOf) }, 200);
    })
    .openapi(eventStreamRoute, (c) => streamEvents(c, deps, c.req.valid('query')))
    .openapi(resendRoute, async (c) => {
      noteAudit(c, { target: c.req.valid('param').id });
      const entry = await outbox.resend(c.req.valid('param').id, new Date(clock.now()).toISOString());
      if (!entry) throw new AppError('NOT_FOUND', 'No such event.');
      return c.json(eventOf(entry), 200);
    })
    .openapi(resendGivenUpRoute, async (c) => {
      const { from, to, all } = c.req.valid('json');
      const range = {
        from: from === undefined ? undefined : new Date(from).toISOString(),
        to: to === undefined ? undefined : new Date(to).toISOString(),
      };
      // What was asked is recorded even if the re-send fails part way; how many it put back once it is done.
      noteAudit(c, { details: all ? { all: true } : range });
      const done = await outbox.resendGivenUp(range, new Date(clock.now()).toISOString());
      noteAudit(c, { details: { ...(all ? { all: true } : range), ...done } });
      return c.json(done, 200);
    })
    .openapi(paymentLinkRoute, async (c) => {
      const body = c.req.valid('json');
      const reference = `link_${randomBytes(10).toString('hex')}`;
      noteAudit(c, { details: { name: body.name, amount: body.amount, currency: body.currency, reference } });
      const created = await payments
        .createOrder(
          {
            purchase: {
              name: body.name,
              notes: body.note,
              imageUrl: body.imageUrl,
              price: body.amount,
              currency: body.currency,
            },
            metadata: { externalId: reference },
          },
          { idempotencyKey: reference },
        )
        .catch((error: unknown) => {
          // A refusal of the values (an unsupported currency, too many decimals) is the merchant's to fix; the
          // upstream's own words are not echoed, as everywhere.
          if (isValueRefusal(error)) {
            throw new AppError(
              'VALIDATION_FAILED',
              'The payment provider refused these values (currency or amount).',
              {
                issues: [{ path: 'body', message: 'refused by the payment provider (currency or amount)' }],
              },
            );
          }
          throw error;
        });
      noteAudit(c, { target: created.id });
      const link: z.output<typeof paymentLinkResponse> = {
        orderId: created.id,
        link: created.link,
        expiresAt: created.order?.expiresAt ?? null,
      };
      return c.json(link, 201);
    })
    .route('/', upstreamBudgetRoutes(deps))
    .route('/', upstreamOrderRoutes(deps))
    .route('/', ledgerOrderRoutes(deps))
    .route('/', orderActionRoutes(deps, ledger))
    .route('/', webhookEndpointRoutes(deps));
}
