/**
 * The payments API (`/pay-api/v1`, the upstream's `pay-api…/v1`). One pipeline per request: key check, parse
 * with zod, run the ledger, answer in the `{data, message, success}` envelope. Failures: 400 malformed, 401
 * key, 404 unknown, 409 illegal transition, 422 unacceptable values.
 */
import { zValidator } from '@hono/zod-validator';
import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { payFail, payOk } from '../envelope.ts';
import { merchantOf } from '../keys.ts';
import { PAYMENTS_MAGIC } from '../magic.ts';
import type { SandboxState } from '../state.ts';
import { CHAINS, fiatDigits, isChain, isFiat } from './currencies.ts';
import { DECIMAL, failureOf, issuesMessage } from './failures.ts';
import { ledgerOf } from './ledger.ts';
import { INIT_TYPES } from './order.ts';
import type { CreateOrderInput } from './order-transitions.ts';

type Env = { Variables: { merchantKey: string } };

/** Ids and names may arrive as numbers from loosely typed callers (a shop's numeric order id). */
const textish = z
  .union([z.string(), z.number()], {
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string'),
  })
  .transform((v) => String(v).trim());
const optionalText = (max: number) => textish.pipe(z.string().max(max)).optional();

const METADATA_KEYS = [
  'externalId',
  'userId',
  'userCountry',
  'userName',
  'userLang',
  'userEmail',
  'redirectUrl',
  'customerId',
  'customerCountry',
  'customerEmail',
  'customerName',
  'customerLang',
] as const;

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

const createOrderSchema = z.object({
  purchase: z.object({
    name: textish.pipe(z.string().min(1, 'is required').max(200)),
    description: optionalText(2000),
    notes: optionalText(2000),
    imageUrl: z.union([z.literal(''), httpUrl]).optional(),
    price: z.union([z.string(), z.number()], {
      error: (issue) =>
        issue.input === undefined ? 'is required' : 'must be a decimal string such as "19.99"',
    }),
    currency: z
      .string({
        error: (issue) => (issue.input === undefined ? 'is required' : 'must be a fiat currency code'),
      })
      .trim()
      .toUpperCase(),
  }),
  metadata: z
    .object({
      externalId: optionalText(100),
      userId: optionalText(100),
      customerId: optionalText(100),
      userCountry: optionalText(2),
      customerCountry: optionalText(2),
      userName: optionalText(200),
      customerName: optionalText(200),
      userLang: optionalText(10),
      customerLang: optionalText(10),
      // Empty strings mean "not given": shop plugins send every field, filled or not.
      userEmail: z.union([z.literal(''), z.email()]).optional(),
      customerEmail: z.union([z.literal(''), z.email()]).optional(),
      redirectUrl: z.union([z.literal(''), httpUrl]).optional(),
    })
    .optional(),
  testMode: z.boolean().optional(),
});

/** Spec `user*` names filled from either naming set; `customer*` names the merchant used are echoed too. */
function normaliseMetadata(input: z.infer<typeof createOrderSchema>['metadata']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!input) return out;
  for (const key of METADATA_KEYS) {
    const value = input[key];
    if (value !== undefined && value !== '') out[key] = value;
  }
  const pairs = [
    ['userId', 'customerId'],
    ['userCountry', 'customerCountry'],
    ['userName', 'customerName'],
    ['userLang', 'customerLang'],
    ['userEmail', 'customerEmail'],
  ] as const;
  for (const [user, customer] of pairs) {
    const value = out[user] ?? out[customer];
    if (value !== undefined) out[user] = value;
  }
  return out;
}

/** Value checks the schema cannot express well; a message means 422. */
function priceProblem(price: string, currency: string): string | undefined {
  if (!isFiat(currency)) return `purchase.currency: ${currency} is not a supported fiat currency`;
  const digits = fiatDigits(currency);
  const match = DECIMAL.exec(price);
  if (!match || Number(price) <= 0) return `purchase.price: "${price}" is not a positive decimal amount`;
  if ((match[1]?.length ?? 0) > digits) {
    return `purchase.price: ${currency} allows at most ${digits} decimal places`;
  }
  return undefined;
}

const routesSchema = z.object({
  externalId: textish.pipe(z.string().min(1, 'is required').max(100)),
  chains: z.array(z.string().trim().toLowerCase()).min(1, 'must name at least one chain').max(10),
  email: z.email().optional(),
  customerEmail: z.email().optional(),
  name: optionalText(100),
  customerName: optionalText(100),
});

const intParam = (min: number, max: number) =>
  z.string().regex(/^\d+$/, 'must be an integer').transform(Number).pipe(z.number().int().min(min).max(max));

const listSchema = z.object({
  page: intParam(1, Number.MAX_SAFE_INTEGER).optional(),
  limit: intParam(1, 100).optional(),
  searchId: z.string().trim().max(100).optional(),
  startDate: intParam(0, Number.MAX_SAFE_INTEGER).optional(),
  endDate: intParam(0, Number.MAX_SAFE_INTEGER).optional(),
  type: z.enum(INIT_TYPES).optional(),
});

/**
 * Dates are integers of an undocumented unit: below 10^11 they are read as epoch seconds (that is before
 * 1973 in milliseconds), otherwise as milliseconds.
 */
const epochMs = (value: number) => (value < 1e11 ? value * 1000 : value);

const shapeFailure =
  (status: ContentfulStatusCode) =>
  (result: { success: true } | { success: false; error: Parameters<typeof issuesMessage>[0] }, c: Context) =>
    result.success ? undefined : payFail(c, status, issuesMessage(result.error));

export function payApi(state: SandboxState) {
  const ledger = ledgerOf(state);

  return new Hono<Env>()
    .use('*', async (c, next) => {
      const key = c.req.header('x-api-key');
      if (!key) return payFail(c, 401, 'Missing X-API-Key header');
      const merchantKey = merchantOf('payments', key);
      if (!merchantKey) return payFail(c, 401, 'Invalid API key');
      c.set('merchantKey', merchantKey);
      await next();
    })
    .post('/orders', zValidator('json', createOrderSchema, shapeFailure(400)), (c) => {
      const body = c.req.valid('json');
      const price = String(body.purchase.price).trim();
      const problem = priceProblem(price, body.purchase.currency);
      if (problem) return payFail(c, 422, problem);
      if (price === PAYMENTS_MAGIC.failingPrice) return payFail(c, 500, 'Internal server error');
      const input: CreateOrderInput = {
        purchase: { ...body.purchase, price },
        metadata: normaliseMetadata(body.metadata),
        testMode: body.testMode ?? false,
      };
      const idempotencyKey = c.req.header('x-idempotency-key') ?? c.req.header('idempotency-key');
      const { record, replayed } = ledger.create(c.get('merchantKey'), input, idempotencyKey);
      if (idempotencyKey) {
        c.header('Idempotency-Key', idempotencyKey);
        if (replayed) c.header('Idempotent-Replayed', 'true');
      }
      return payOk(c, { order: record.order });
    })
    .post('/payment-routes', zValidator('json', routesSchema, shapeFailure(400)), (c) => {
      const body = c.req.valid('json');
      const chains = [...new Set(body.chains)];
      const unknown = chains.filter((chain) => !isChain(chain));
      if (unknown.length) {
        return payFail(
          c,
          422,
          `chains: unsupported ${unknown.map((u) => `"${u}"`).join(', ')}; supported: ${CHAINS.join(', ')}`,
        );
      }
      const request = {
        externalId: body.externalId,
        email: body.email ?? body.customerEmail ?? '',
        name: body.name ?? body.customerName ?? '',
      };
      const routes = chains.map((chain) => ledger.route(c.get('merchantKey'), { ...request, chain }));
      return payOk(c, {
        paymentRoutes: routes,
        pagination: { currentPage: 1, totalPages: 1, totalItems: routes.length, itemsPerPage: routes.length },
      });
    })
    .get('/merchants/orders', zValidator('query', listSchema, shapeFailure(400)), (c) => {
      const query = c.req.valid('query');
      const page = query.page ?? 1;
      const limit = query.limit ?? 20;
      const start = query.startDate === undefined ? undefined : epochMs(query.startDate);
      const end = query.endDate === undefined ? undefined : epochMs(query.endDate);
      if (start !== undefined && end !== undefined && end < start) {
        return payFail(c, 400, 'endDate must not be before startDate');
      }
      const needle = query.searchId?.toLowerCase();
      const matches = ledger
        .list(c.get('merchantKey'))
        .filter(({ order }) => {
          const created = Date.parse(order.createdAt);
          if (start !== undefined && created < start) return false;
          if (end !== undefined && created > end) return false;
          if (query.type && order.initType !== query.type) return false;
          if (!needle) return true;
          if (state.settings.searchIdMatch === 'exact') return order.id.toLowerCase() === needle;
          return [order.id, order.externalId ?? ''].some((v) => v.toLowerCase().includes(needle));
        })
        .sort((a, b) => Date.parse(b.order.createdAt) - Date.parse(a.order.createdAt));
      return payOk(c, {
        orders: matches.slice((page - 1) * limit, page * limit).map((r) => r.order),
        pagination: {
          currentPage: page,
          totalPages: Math.max(1, Math.ceil(matches.length / limit)),
          totalItems: matches.length,
          itemsPerPage: limit,
        },
      });
    })
    .all('*', (c) => payFail(c, 404, `No route ${c.req.method} ${c.req.path}`))
    .onError((error, c) => {
      const { status, message } = failureOf(error);
      return payFail(c, status, message);
    });
}
