/**
 * Merchant routes behind `Authorization: Bearer ADMIN_TOKEN`: the upstream order list, normalised, and
 * payment links (an upstream order with a name, an internal note and a display amount, to share as a link).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { AppDeps, AppEnv } from '../deps.ts';
import { AppError } from '../errors.ts';
import { validate } from '../middleware/validate.ts';
import { factsOf } from '../order-ledger.ts';
import { mapUpstreamStatus } from '../order-status.ts';
import type { UpstreamOrder } from '../schemas/upstream-payments.ts';
import { UpstreamRefusal } from '../upstream/http.ts';

/** Hashing both sides first makes the comparison constant-time whatever the lengths. */
function tokenMatches(expected: string, given: string): boolean {
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}

export function adminAuth(adminToken: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const match = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '');
    if (!match?.[1] || !tokenMatches(adminToken, match[1].trim())) {
      throw new AppError('UNAUTHORIZED', 'A valid admin token is required.');
    }
    await next();
  };
}

/** ISO date(-time) or epoch (seconds below 10^11, else milliseconds) → epoch milliseconds. */
const dateParam = z
  .string()
  .trim()
  .transform((value, ctx) => {
    if (/^\d+$/.test(value)) {
      const n = Number(value);
      return n < 1e11 ? n * 1000 : n;
    }
    const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
    const ms = iso.test(value) ? Date.parse(value) : Number.NaN;
    if (Number.isNaN(ms)) {
      ctx.addIssue({ code: 'custom', message: 'must be an ISO date or epoch seconds/milliseconds' });
      return z.NEVER;
    }
    return ms;
  });

const intParam = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .default(fallback);

export const adminOrdersQuery = z
  .object({
    page: intParam(1, 1_000_000, 1),
    limit: intParam(1, 100, 20),
    searchId: z.string().trim().min(1).max(100).optional(),
    startDate: dateParam.optional(),
    endDate: dateParam.optional(),
    type: z.enum(['STANDARD', 'INVOICE', 'PAYMENT_ROUTE']).optional(),
  })
  .refine((q) => q.startDate === undefined || q.endDate === undefined || q.endDate >= q.startDate, {
    message: 'must not be before startDate',
    path: ['endDate'],
  });

export const paymentLinkBody = z.object({
  name: z.string().trim().min(1).max(200),
  note: z.string().max(2000).optional(),
  imageUrl: z.url({ protocol: /^https?$/ }).optional(),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'must be a 3-letter currency code')
    .transform((value) => value.toUpperCase()),
  amount: z
    .union([z.string(), z.number()])
    .transform((value) => String(value).trim())
    .pipe(
      z.string().regex(/^(?=.*[1-9])\d{1,12}(\.\d{1,8})?$/, 'must be a positive decimal amount like "49.00"'),
    ),
});

export function adminOrder(order: UpstreamOrder) {
  const upstreamStatus = order.status?.toUpperCase() ?? null;
  const customer = order.metadata?.customer;
  return {
    id: order.id,
    externalId: order.externalId ?? order.metadata?.externalId ?? null,
    type: order.initType ?? null,
    link: order.link ?? null,
    status: (upstreamStatus && mapUpstreamStatus(upstreamStatus)) ?? null,
    upstreamStatus,
    purchase: {
      name: order.purchase?.name ?? null,
      price: order.purchase?.price ?? null,
      currency: order.purchase?.currency ?? null,
      notes: order.purchase?.notes ?? null,
    },
    paid: factsOf(order)?.paid ?? null,
    customer: {
      id: customer?.id ?? null,
      name: customer?.name ?? null,
      email: customer?.email ?? null,
      country: customer?.country ?? null,
    },
    createdAt: order.createdAt ?? null,
    expiresAt: order.expiresAt ?? null,
    payments: order.payments.map((payment) => ({
      id: payment.id ?? null,
      amount: payment.receivedAmount ?? null,
      currency: payment.receivedCurrency ?? null,
      status: payment.status ?? null,
      txHash: payment.txHash ?? null,
      confirmedAt: payment.confirmedAt ?? null,
    })),
    updates: order.updates.map((update) => ({
      id: update.id ?? null,
      message: update.message ?? null,
      at: update.timestamp ?? update.createdAt ?? null,
    })),
  };
}

export function adminRoutes(deps: AppDeps) {
  const { config, payments } = deps;
  return new Hono<AppEnv>()
    .use('*', adminAuth(config.adminToken))
    .get('/orders', validate('query', adminOrdersQuery), async (c) => {
      const query = c.req.valid('query');
      const list = await payments.listOrders(query);
      const p = list.pagination;
      return c.json({
        orders: list.orders.map(adminOrder),
        pagination: {
          page: p?.currentPage ?? query.page,
          limit: p?.itemsPerPage ?? query.limit,
          totalPages: p?.totalPages ?? null,
          totalItems: p?.totalItems ?? null,
        },
      });
    })
    .post('/payment-links', validate('json', paymentLinkBody), async (c) => {
      const body = c.req.valid('json');
      const reference = `link_${randomBytes(10).toString('hex')}`;
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
          if (
            error instanceof UpstreamRefusal &&
            (error.upstreamStatus === 400 || error.upstreamStatus === 422)
          ) {
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
      return c.json(
        { orderId: created.id, link: created.link, expiresAt: created.order?.expiresAt ?? null },
        201,
      );
    });
}
