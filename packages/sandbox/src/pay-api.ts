/**
 * The payments API (`/pay-api/v1`, the upstream's `pay-api…/v1`) and the order controls (`/control/orders`).
 * One pipeline per request: key check, parse with zod, run the ledger, answer in the `{data, message, success}`
 * envelope. Failures: 400 malformed, 401 key, 404 unknown, 409 illegal transition, 422 unacceptable values.
 */
import { zValidator } from '@hono/zod-validator';
import { type Context, Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { rampFail as controlFail, payFail, payOk } from './envelope.ts';
import { merchantOf } from './keys.ts';
import {
  type CreateOrderInput,
  cancel as cancelOrder,
  expire as expireOrder,
  INIT_TYPES,
  MAGIC,
  type OrderRecord,
  provideCustomer,
  receivePayment,
  selectCurrency,
  TransitionError,
} from './orders.ts';
import { CHAINS, cryptoCode, fiatDigits, isChain, isFiat } from './pay-currencies.ts';
import { LedgerError, ledgerOf } from './pay-ledger.ts';
import type { SandboxState } from './state.ts';

type Env = { Variables: { merchantKey: string } };

/** zod issues as one readable line: `purchase.price: Invalid input: expected string, received undefined`. */
function issuesMessage(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }): string {
  return error.issues
    .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}

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

const DECIMAL = /^(?:0|[1-9]\d*)(?:\.(\d+))?$/;

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

function failureOf(error: unknown): { status: ContentfulStatusCode; message: string } {
  if (error instanceof LedgerError) return { status: error.status, message: error.message };
  if (error instanceof TransitionError) return { status: 409, message: error.message };
  if (error instanceof HTTPException) return { status: error.status, message: error.message };
  return { status: 500, message: 'Internal server error' };
}

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
      if (price === MAGIC.failingPrice) return payFail(c, 500, 'Internal server error');
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

const paySchema = z.object({
  kind: z.enum(['exact', 'underpaid', 'overpaid']).default('exact'),
  /** Crypto code (`USDC_BASE`, `ETH`, `usdt_tron`); switches the quote while nothing is paid yet. */
  currency: z.string().optional(),
  /** Exact crypto amount to send, overriding `kind`. */
  amount: z.string().regex(DECIMAL, 'must be a decimal string').optional(),
});

const depositSchema = z.object({
  routeId: z.string().min(1),
  currency: z.string().optional(),
  amount: z.string().regex(DECIMAL, 'must be a decimal string').optional(),
});

/** A payer to stand in when a control pays an order nobody identified for. */
const STAND_IN_PAYER = { name: 'Sandbox Payer', email: 'payer@example.com' };

function resolveCode(input: string | undefined): string | undefined {
  if (input === undefined) return undefined;
  const code = cryptoCode(input);
  if (!code) throw new LedgerError(422, `Unsupported currency ${input}`);
  return code;
}

/** `/control/orders`: drive orders without a browser (tests, demos). Unauthenticated, like the other controls. */
export function orderControls(state: SandboxState) {
  const ledger = ledgerOf(state);
  const ok = (c: Context, record: OrderRecord) => c.json({ success: true, data: { order: record.order } });
  const jsonBody = <T extends z.ZodType>(schema: T) =>
    zValidator('json', schema, (r, c) =>
      r.success ? undefined : controlFail(c, 400, issuesMessage(r.error)),
    );

  return new Hono()
    .post('/route-deposits', jsonBody(depositSchema), (c) => {
      const body = c.req.valid('json');
      return ok(c, ledger.deposit(body.routeId, resolveCode(body.currency), body.amount));
    })
    .get('/:id', (c) => {
      const record = ledger.get(c.req.param('id'));
      return record ? ok(c, record) : controlFail(c, 404, `Order ${c.req.param('id')} not found`);
    })
    .post('/:id/pay', jsonBody(paySchema), (c) => {
      const id = c.req.param('id');
      const body = c.req.valid('json');
      const wanted = resolveCode(body.currency);
      // Walk the order to AWAITING_PAYMENT as a payer would, then pay.
      let record = ledger.get(id);
      if (!record) throw new LedgerError(404, `Order ${id} not found`);
      if (record.order.status === 'PENDING_USER_CREATION') {
        const payer = {
          name: record.payer.name ?? STAND_IN_PAYER.name,
          email: record.payer.email ?? STAND_IN_PAYER.email,
        };
        record = ledger.apply(id, (r, ctx) => provideCustomer(r, payer, ctx));
      }
      const switching =
        record.order.status === 'AWAITING_PAYMENT' && wanted !== undefined && wanted !== record.payCode;
      if (record.order.status === 'PENDING_CURRENCY_SELECTION' || switching) {
        const code = wanted ?? record.payCode;
        record = ledger.apply(id, (r, ctx) => selectCurrency(r, code, ctx));
      } else if (wanted !== undefined && wanted !== record.payCode) {
        throw new TransitionError(`Order ${id} is being paid in ${record.payCode}; cannot pay in ${wanted}`);
      }
      return ok(
        c,
        ledger.apply(id, (r, ctx) => receivePayment(r, { kind: body.kind, amount: body.amount }, ctx)),
      );
    })
    .post('/:id/expire', (c) => ok(c, ledger.apply(c.req.param('id'), expireOrder)))
    .post('/:id/cancel', (c) => ok(c, ledger.apply(c.req.param('id'), cancelOrder)))
    .onError((error, c) => {
      const { status, message } = failureOf(error);
      return controlFail(c, status, message);
    });
}
