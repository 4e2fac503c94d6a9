/**
 * The ledger for support: `GET /api/admin/orders` searches the orders this backend made (our id, the upstream's,
 * a transaction hash, the payer's e-mail, the merchant's reference), filters by status and dates, and pages by
 * keyset (store/order-search.ts); `GET /api/admin/orders/{id}` is one order with its status history, payments,
 * every event with every delivery attempt, and the audit entries that touched it.
 */
import { $, createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import type { AuditEntry } from '../../admin/audit.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { configEndpointId } from '../../events/endpoints.ts';
import { hookTarget, type OutboxEntry } from '../../events/outbox.ts';
import { errorResponses, jsonResponse, openApiRoutes } from '../../openapi.ts';
import type { OrderRecord } from '../../orders/order.ts';
import { orderStatuses } from '../../orders/status.ts';
import { upstreamKey } from '../../orders/upstream-facts.ts';
import type { RefundRecord } from '../../refunds/refund.ts';
import type { UpstreamOrder } from '../../schemas/upstream-payments.ts';
import { orderCursor, readOrderCursor, searchTerm } from '../../store/order-search.ts';
import { adminErrors, adminRoute, intParam } from './admin-route.ts';
import { ledgerOrder, ledgerOrderRefunds, ledgerOrderSchema, ledgerRefunds } from './ledger-order.ts';

/** An ISO date or date-time; `to` as a bare date means the end of that day. */
const isoParam = (endOfDay: boolean) =>
  z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/, 'must be an ISO date')
    .transform((value, ctx) => {
      const ms = Date.parse(value);
      if (Number.isNaN(ms)) {
        ctx.addIssue({ code: 'custom', message: 'must be an ISO date' });
        return z.NEVER;
      }
      const dayLater = endOfDay && value.length === 10 ? 24 * 60 * 60 * 1000 : 0;
      return new Date(ms + dayLater).toISOString();
    });

/** `status=paid&status=underpaid` or `status=paid,underpaid`. */
const statusParam = z
  .union([z.string(), z.array(z.string())])
  .transform((value) =>
    (Array.isArray(value) ? value : [value])
      .flatMap((part) => part.split(','))
      .map((part) => part.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(orderStatuses)).max(orderStatuses.length));

export const ledgerOrdersQuery = z
  .strictObject({
    q: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('Our id, the upstream’s, a tx hash, an e-mail or a reference'),
    status: statusParam.optional(),
    from: isoParam(false).optional().describe('Created at or after (ISO date or date-time)'),
    to: isoParam(true).optional().describe('Created before (a bare date: up to the end of that day)'),
    limit: intParam(1, 100, 25),
    cursor: z.string().max(500).optional().describe('The previous page’s nextCursor'),
  })
  .refine((query) => !query.from || !query.to || query.to > query.from, {
    message: 'must be after from',
    path: ['to'],
  });

export const ledgerOrdersResponse = z.object({
  orders: z.array(ledgerOrderSchema),
  nextCursor: z.string().nullable(),
});

const attemptView = z.object({
  at: z.string(),
  status: z.number().int().nullable(),
  error: z.string().nullable(),
  responseExcerpt: z.string().nullable(),
});
export const orderEventView = z.object({
  id: z.string(),
  type: z.string(),
  createdAt: z.string(),
  state: z.enum(['pending', 'delivered', 'failed']),
  deliveries: z.array(
    z.object({
      endpointId: z.string(),
      state: z.enum(['pending', 'delivered', 'failed']),
      nextAttemptAt: z.string(),
      attempts: z.array(attemptView),
    }),
  ),
});

export const ledgerOrderDetail = z.object({
  order: ledgerOrderSchema.extend({
    statusHistory: z.array(
      z.object({ status: z.string(), upstreamStatus: z.string(), at: z.string(), source: z.string() }),
    ),
    ...ledgerOrderRefunds,
  }),
  events: z.array(orderEventView),
  audit: z.array(z.record(z.string(), z.unknown())),
});

/** The endpoint a delivery's target names (endpoints.ts: a configured URL, an API endpoint's id, the hook). */
export const endpointIdOf = (target: string) =>
  target.startsWith('we_') || target === hookTarget ? target : configEndpointId(target);

/** A delivery's attempts: the kept ones, or (written before they were kept) the last one known. */
export const attemptsOf = (delivery: OutboxEntry['deliveries'][number]) =>
  delivery.history ??
  (delivery.lastAttemptAt
    ? [
        {
          at: delivery.lastAttemptAt,
          status: delivery.lastStatus,
          error: delivery.lastError,
          responseExcerpt: null,
        },
      ]
    : []);

export const eventStateOf = (entry: OutboxEntry) =>
  entry.deliveries.some((d) => d.state === 'failed')
    ? ('failed' as const)
    : entry.deliveries.some((d) => d.state === 'pending')
      ? ('pending' as const)
      : ('delivered' as const);

export const orderEventOf = (entry: OutboxEntry): z.output<typeof orderEventView> => ({
  id: entry.event.id,
  type: entry.event.type,
  createdAt: entry.createdAt,
  state: eventStateOf(entry),
  deliveries: entry.deliveries.map((delivery) => ({
    endpointId: endpointIdOf(delivery.target),
    state: delivery.state,
    nextAttemptAt: delivery.nextAttemptAt,
    attempts: attemptsOf(delivery),
  })),
});

/** Audit entries read back to find an order's (newest first). */
const auditScan = 2000;

const listRoute = createRoute({
  ...adminRoute,
  method: 'get',
  path: '/orders',
  summary: 'The orders this backend made (its ledger), searched, filtered and paged newest first',
  request: { query: ledgerOrdersQuery },
  responses: { 200: jsonResponse(ledgerOrdersResponse, 'A page of orders'), ...adminErrors() },
});

const detailRoute = createRoute({
  ...adminRoute,
  method: 'get',
  path: '/orders/{id}',
  summary:
    'One order: status history, payments, purchase, every event with every delivery attempt, its audit entries',
  request: { params: z.object({ id: z.string().min(1).max(200) }) },
  responses: {
    200: jsonResponse(ledgerOrderDetail, 'The order'),
    ...adminErrors(),
    ...errorResponses('NOT_FOUND'),
  },
});

export function ledgerOrderRoutes(deps: AppDeps) {
  const { store, payments, outbox } = deps;
  /** The upstream's view of one order, or undefined when it cannot say now (the ledger answers alone). */
  const upstreamOf = async (upstreamId: string): Promise<UpstreamOrder | undefined> => {
    try {
      const list = await payments.listOrders({ searchId: upstreamId, limit: 5 });
      return list.orders.find((order) => upstreamKey(order.id) === upstreamKey(upstreamId));
    } catch {
      return undefined;
    }
  };
  return $(openApiRoutes())
    .openapi(listRoute, async (c) => {
      const query = c.req.valid('query');
      const after = query.cursor ? readOrderCursor(query.cursor) : undefined;
      if (query.cursor && !after)
        throw new AppError('VALIDATION_FAILED', 'The cursor is not one this backend gave.', {
          issues: [{ path: 'cursor', message: 'not a cursor of this list' }],
        });
      const term = query.q ? searchTerm(query.q) : undefined;
      const filter = {
        statuses: query.status,
        from: query.from,
        to: query.to,
        limit: query.limit + 1,
        after,
      };
      let records = await store.pageOrders<OrderRecord>({ ...filter, term });
      if (term && records.length === 0 && !after) {
        // Nothing in the ledger by that: the upstream may know it (a payment no webhook has told yet), and its
        // order names ours as externalId.
        const found = await payments.listOrders({ searchId: query.q, limit: 10 }).catch(() => undefined);
        const ours = (found?.orders ?? [])
          .map((order) => order.externalId ?? order.metadata?.externalId)
          .filter((id): id is string => Boolean(id?.startsWith('ord_')));
        const matched = await Promise.all(
          [...new Set(ours)].map((id) => store.get<OrderRecord>('orders', id)),
        );
        records = matched.filter(
          (record): record is OrderRecord =>
            record !== undefined &&
            (!query.status?.length || query.status.includes(record.status)) &&
            (!query.from || record.createdAt >= query.from) &&
            (!query.to || record.createdAt < query.to),
        );
        return c.json({ orders: records.map((record) => ledgerOrder(record)), nextCursor: null }, 200);
      }
      const page = records.slice(0, query.limit);
      const last = page[page.length - 1];
      const nextCursor = records.length > query.limit && last ? orderCursor(last.createdAt, last.id) : null;
      return c.json({ orders: page.map((record) => ledgerOrder(record)), nextCursor }, 200);
    })
    .openapi(detailRoute, async (c) => {
      const { id } = c.req.valid('param');
      const record =
        (await store.get<OrderRecord>('orders', id)) ??
        (await store.find<OrderRecord>('orders', { upstreamKey: upstreamKey(id) }, { limit: 1 }))[0];
      if (!record) throw new AppError('NOT_FOUND', 'No order of this backend has that id.');
      const [upstream, entries, audited, refunds] = await Promise.all([
        upstreamOf(record.upstreamId),
        outbox.list({ orderId: record.id, limit: 200 }),
        store.find<AuditEntry>('audit', {}, { newestFirst: true, limit: auditScan }),
        store.find<RefundRecord>('refunds', { orderId: record.id }),
      ]);
      const touched = new Set([record.id, record.upstreamId, ...entries.map((entry) => entry.event.id)]);
      const order = {
        ...ledgerOrder(record, upstream),
        statusHistory: record.history.map(({ status, upstreamStatus, at, source }) => ({
          status,
          upstreamStatus,
          at,
          source,
        })),
        ...ledgerRefunds(deps.config.publicUrl, record, refunds),
      };
      return c.json(
        {
          order,
          // Oldest first: the order's story.
          events: entries.map(orderEventOf).reverse(),
          audit: audited
            .filter((entry) => entry.target !== null && touched.has(entry.target))
            .map((entry) => ({ ...entry })),
        },
        200,
      );
    });
}
