/**
 * Orders for the widget: create (idempotent), read the status (JSON or server-sent events, each behind the
 * order's status token), and the return route the payment page sends the payer to.
 *
 * Prices never come from the browser: a catalog product id or a merchant-signed checkout token decides what
 * is charged; anything else in the body is dropped by the schema.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { createKeyedLock } from '../keyed-lock.ts';
import { logger } from '../logger.ts';
import {
  errorResponses,
  jsonBody,
  jsonResponse,
  openApiRoutes,
  otherResponse,
  securedBy,
} from '../openapi.ts';
import {
  createOrderLedger,
  factsOf,
  hashToken,
  type OrderLedger,
  type OrderProduct,
  type OrderRecord,
  orderView,
  statusTokenMatches,
} from '../order-ledger.ts';
import { isFinal, mapUpstreamStatus, orderStatuses } from '../order-status.ts';
import { isAllowedUrl } from '../origins.ts';
import { createProductCatalog, type ProductCatalog } from '../products.ts';
import { verifyCheckoutToken } from '../tokens.ts';
import { UpstreamRefusal } from '../upstream/http.ts';

export const createOrderBody = z
  .object({
    product: z.string().min(1).max(64).optional(),
    checkoutToken: z.string().min(1).max(4096).optional(),
    customer: z
      .object({
        name: z.string().trim().min(1).max(100).optional(),
        email: z.email().max(200).optional(),
        country: z
          .string()
          .regex(/^[A-Za-z]{2}$/, 'must be a 2-letter country code')
          .transform((value) => value.toUpperCase())
          .optional(),
        lang: z
          .string()
          .regex(/^[A-Za-z]{2}(-[A-Za-z0-9]{2,8})?$/, 'must be a language code like "en" or "pt-BR"')
          .optional(),
      })
      .optional(),
    returnUrl: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional(),
  })
  .refine((body) => (body.product === undefined) !== (body.checkoutToken === undefined), {
    message: 'send exactly one of product and checkoutToken',
    path: ['product'],
  })
  .meta({ id: 'CreateOrderBody' });
export type CreateOrderBody = z.output<typeof createOrderBody>;

export const idempotencyKeySchema = z
  .string()
  .min(8, 'must be 8 to 128 characters')
  .max(128, 'must be 8 to 128 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

const orderStatus = z.enum(orderStatuses).meta({ id: 'OrderStatus' });

export const orderViewSchema = z
  .object({
    orderId: z.string(),
    status: orderStatus,
    final: z.boolean().describe('paid, overpaid, expired and failed are final'),
    upstreamStatus: z.string(),
    amount: z.string(),
    currency: z.string(),
    paid: z.object({ amount: z.string(), currency: z.string() }).optional(),
    returnUrl: z.string().optional(),
    updatedAt: z.string(),
  })
  .meta({ id: 'OrderView' });

export const createdOrderSchema = z
  .object({
    orderId: z.string(),
    link: z.string().describe("The upstream's payment page"),
    status: orderStatus,
    expiresAt: z.string().nullable(),
    statusToken: z.string().describe('Needed to read the status; shown only in this answer and its replays'),
    product: z.object({ name: z.string(), price: z.string(), currency: z.string() }),
  })
  .meta({ id: 'CreatedOrder' });
export type CreateOrderResponse = z.output<typeof createdOrderSchema>;

const orderParams = z.object({ id: z.string() });
/** Checked by the handlers (a missing or wrong one is 401, not 422), so documented as plain parameters. */
const statusTokenHeader = {
  name: 'X-Status-Token',
  in: 'header' as const,
  required: false,
  description: 'Or `?token=`',
  schema: { type: 'string' as const },
};

const createOrderRoute = createRoute({
  method: 'post',
  path: '/',
  tags: ['Orders'],
  summary: 'Create a payment order for a product or a checkout token',
  description:
    'The same Idempotency-Key with the same body answers the same order (200, Idempotent-Replayed).',
  parameters: [
    {
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      description: '8 to 128 printable ASCII characters; a missing one is 400, a malformed one 422',
      schema: { type: 'string', minLength: 8, maxLength: 128, pattern: '^[\\x21-\\x7e]+$' },
    },
  ],
  request: { body: jsonBody(createOrderBody) },
  responses: {
    201: jsonResponse(createdOrderSchema, 'Created'),
    200: {
      ...jsonResponse(createdOrderSchema, 'Replay of the same key and body'),
      headers: { 'Idempotent-Replayed': { description: 'true', schema: { type: 'string' } } },
    },
    ...errorResponses(
      'BAD_REQUEST',
      'VALIDATION_FAILED',
      'NOT_FOUND',
      'TOKEN_INVALID',
      'TOKEN_EXPIRED',
      'IDEMPOTENCY_CONFLICT',
      'RETURN_URL_NOT_ALLOWED',
      'UPSTREAM_ERROR',
      'UPSTREAM_TIMEOUT',
    ),
  },
});

const orderStatusRoute = createRoute({
  method: 'get',
  path: '/{id}',
  tags: ['Orders'],
  summary: "An order's status",
  parameters: [statusTokenHeader],
  request: { params: orderParams },
  security: securedBy('statusToken'),
  responses: {
    200: jsonResponse(orderViewSchema, 'The order'),
    ...errorResponses('UNAUTHORIZED', 'NOT_FOUND'),
  },
});

const orderEventsRoute = createRoute({
  method: 'get',
  path: '/{id}/events',
  tags: ['Orders'],
  summary: 'Server-sent `status` events with the OrderView, until a final status',
  parameters: [{ name: 'token', in: 'query', required: true, schema: { type: 'string' } }],
  request: { params: orderParams },
  responses: {
    200: otherResponse('text/event-stream', 'Event stream'),
    ...errorResponses('UNAUTHORIZED', 'NOT_FOUND'),
  },
});

const orderReturnRoute = createRoute({
  method: 'get',
  path: '/{id}/return',
  tags: ['Orders'],
  summary: 'Where the payment page sends the payer (303 at top level, a postMessage page in an iframe)',
  request: { params: orderParams },
  responses: {
    303: { description: "Redirect to the merchant's returnUrl with orderId and status" },
    200: otherResponse('text/html', 'A page that tells the embedding widget'),
    ...errorResponses('NOT_FOUND'),
  },
});

interface IdempotencyRecord {
  state: 'pending' | 'done';
  /** An attempt ended without knowing whether the upstream made the order: look before creating again. */
  uncertain?: boolean;
  bodyHash: string;
  /** Our order id, chosen when the key is first claimed and reused if a stale claim is taken over. */
  orderId: string;
  statusToken: string;
  claimedAt: number;
  response?: CreateOrderResponse;
}

/** A claim older than this with no answer is taken to be from a process that died mid-call. */
const staleClaimMs = 2 * 60 * 1000;
/** How often an open SSE stream asks the ledger to look at the upstream list (the ledger limits it further). */
const ssePollMs = 2000;
const sseKeepAliveMs = 15_000;

/** A stable JSON form: keys sorted, so `{a,b}` and `{b,a}` hash the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const newOrderId = () => `ord_${randomBytes(10).toString('hex')}`;
const newStatusToken = () => `st_${randomBytes(24).toString('base64url')}`;

function statusToken(c: Context): string | undefined {
  return c.req.header('x-status-token') ?? c.req.query('token') ?? undefined;
}

async function authorisedOrder(ledger: OrderLedger, c: Context): Promise<OrderRecord> {
  const record = await ledger.get(c.req.param('id') ?? '');
  if (!record) throw new AppError('NOT_FOUND', 'No such order.');
  if (!statusTokenMatches(record, statusToken(c))) {
    throw new AppError('UNAUTHORIZED', 'A valid status token for this order is required.');
  }
  return record;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** JSON safe to put inside an inline <script> (no `</script>`, no U+2028 surprises). */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

const statusSentence: Record<OrderRecord['status'], string> = {
  pending: 'Your payment has not arrived yet.',
  awaiting_payment: 'We are waiting for your payment to arrive.',
  underpaid: 'Your payment arrived but was less than the amount due.',
  paid: 'Payment received. Thank you!',
  overpaid: 'Payment received (a little more than the amount due). Thank you!',
  expired: 'This payment request has expired.',
  failed: 'This payment was cancelled.',
};

function page(title: string, body: string, script = '', nonce = '') {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;color:#1b1b1f;background:#fff}@media (prefers-color-scheme:dark){body{color:#eee;background:#16161a}}main{max-width:28rem;padding:2rem;text-align:center}</style></head>
<body><main>${body}</main>${script ? `<script nonce="${nonce}">${script}</script>` : ''}</body></html>`;
}

export function orderRoutes(
  deps: AppDeps,
  ledger: OrderLedger = createOrderLedger(deps),
  catalog: ProductCatalog = createProductCatalog(deps.config.productsFile, deps.config.publicUrl),
) {
  const { config, payments, store, clock } = deps;
  const keyLock = createKeyedLock();

  async function resolveProduct(body: CreateOrderBody): Promise<OrderProduct> {
    if (body.product !== undefined) {
      const product = await catalog.get(body.product);
      if (!product) throw new AppError('NOT_FOUND', 'No such product.');
      return {
        id: product.id,
        name: product.name,
        description: product.description,
        imageUrl: product.image,
        price: product.price,
        currency: product.currency,
        reference: null,
      };
    }
    const token = verifyCheckoutToken(body.checkoutToken ?? '', config.checkoutTokenSecret, clock.now());
    return {
      id: null,
      name: token.name,
      description: token.description ?? '',
      imageUrl: token.imageUrl ?? null,
      price: token.price,
      currency: token.currency,
      reference: token.reference ?? null,
    };
  }

  /**
   * The upstream order an earlier attempt with this claim may have made (its `externalId` is our order id), so a
   * retry after a timeout answers with it instead of making a second, payable order.
   */
  async function findCreated(orderId: string) {
    const { orders } = await payments.listOrders({ searchId: orderId, limit: 10 });
    const found = orders.find((o) => (o.externalId ?? o.metadata?.externalId) === orderId && o.link);
    return found?.link ? { id: found.id, link: found.link, order: found } : undefined;
  }

  /**
   * Creates the upstream order and the ledger entry for a claimed key. A claim an earlier attempt left uncertain
   * (a timeout, a lost answer, a process that died) first looks for the order that attempt may have made.
   */
  async function createOrder(
    body: CreateOrderBody,
    product: OrderProduct,
    claim: IdempotencyRecord,
    origin: string | null,
  ): Promise<CreateOrderResponse> {
    const customer = body.customer ?? {};
    const earlier = claim.uncertain ? await findCreated(claim.orderId) : undefined;
    const created =
      earlier ??
      (await payments.createOrder(
        {
          purchase: {
            name: product.name,
            ...(product.description ? { description: product.description } : {}),
            ...(product.imageUrl ? { imageUrl: product.imageUrl } : {}),
            price: product.price,
            currency: product.currency,
          },
          metadata: {
            externalId: claim.orderId,
            redirectUrl: `${config.publicUrl}/api/orders/${claim.orderId}/return`,
            userName: customer.name,
            userEmail: customer.email,
            userCountry: customer.country,
            userLang: customer.lang,
          },
        },
        { idempotencyKey: claim.orderId },
      ));
    const facts = created.order && factsOf(created.order);
    const upstreamStatus = facts?.upstreamStatus.toUpperCase() ?? 'PENDING_USER_CREATION';
    const status = mapUpstreamStatus(upstreamStatus) ?? 'pending';
    const at = new Date(clock.now()).toISOString();
    const record: OrderRecord = {
      id: claim.orderId,
      upstreamId: created.id,
      link: created.link,
      status,
      upstreamStatus,
      product,
      returnUrl: body.returnUrl ?? null,
      origin,
      customer: {
        name: customer.name ?? null,
        email: customer.email ?? null,
        country: customer.country ?? null,
      },
      statusTokenHash: hashToken(claim.statusToken).toString('hex'),
      paid: null,
      history: [{ status, upstreamStatus, at, source: 'created' }],
      createdAt: at,
      updatedAt: at,
      expiresAt: created.order?.expiresAt ?? null,
    };
    await ledger.create(record);
    return {
      orderId: record.id,
      link: record.link,
      status: record.status,
      expiresAt: record.expiresAt,
      statusToken: claim.statusToken,
      product: { name: product.name, price: product.price, currency: product.currency },
    };
  }

  /**
   * One key at a time in this process (the keyed lock), one claim across processes sharing the store
   * (`setIfAbsent`). A replay answers the stored response; a failure clears the claim so a retry can run.
   */
  async function createIdempotent(
    key: string,
    body: CreateOrderBody,
    origin: string | null,
  ): Promise<{ response: CreateOrderResponse; replayed: boolean }> {
    const storeKey = `orders:${key}`;
    const bodyHash = createHash('sha256').update(canonical(body)).digest('hex');
    return keyLock.run(storeKey, async () => {
      const existing = await store.get<IdempotencyRecord>('idempotency', storeKey);
      if (existing) {
        if (existing.bodyHash !== bodyHash) {
          throw new AppError(
            'IDEMPOTENCY_CONFLICT',
            'This Idempotency-Key was used with a different request.',
          );
        }
        if (existing.state === 'done' && existing.response)
          return { response: existing.response, replayed: true };
        if (clock.now() - existing.claimedAt < staleClaimMs) {
          throw new AppError(
            'IDEMPOTENCY_CONFLICT',
            'A request with this Idempotency-Key is still in progress.',
          );
        }
      }
      // Checked before claiming, so a refused request leaves no trace behind.
      if (body.returnUrl !== undefined && !isAllowedUrl(body.returnUrl, config.allowedOrigins)) {
        throw new AppError(
          'RETURN_URL_NOT_ALLOWED',
          'returnUrl must be on one of the shop’s allowed origins.',
          {
            issues: [{ path: 'returnUrl', message: 'not on an allowed origin' }],
          },
        );
      }
      const product = await resolveProduct(body);
      // A stale or uncertain claim is taken over with the same order id (the upstream's externalId and idempotency
      // key), and looks for what the earlier attempt made before creating anything.
      const claim: IdempotencyRecord = existing
        ? { ...existing, uncertain: true }
        : {
            state: 'pending',
            bodyHash,
            orderId: newOrderId(),
            statusToken: newStatusToken(),
            claimedAt: clock.now(),
          };
      if (existing) {
        // Taken over only if no other instance took it since we read it (a conditional update).
        const taken = await store.transaction(async (tx) => {
          const current = await tx.get<IdempotencyRecord>('idempotency', storeKey);
          if (current?.state !== 'pending' || current.claimedAt !== existing.claimedAt) return false;
          await tx.set('idempotency', storeKey, { ...claim, claimedAt: clock.now() });
          return true;
        });
        if (!taken) {
          throw new AppError(
            'IDEMPOTENCY_CONFLICT',
            'A request with this Idempotency-Key is still in progress.',
          );
        }
      } else if (!(await store.setIfAbsent('idempotency', storeKey, claim))) {
        throw new AppError(
          'IDEMPOTENCY_CONFLICT',
          'A request with this Idempotency-Key is still in progress.',
        );
      }
      try {
        const response = await ledger.track(claim.orderId, createOrder(body, product, claim, origin));
        await store.set<IdempotencyRecord>('idempotency', storeKey, { ...claim, state: 'done', response });
        return { response, replayed: false };
      } catch (error) {
        if (error instanceof UpstreamRefusal && error.upstreamStatus < 500) {
          // A definite no: nothing was made, the key is free again.
          await store.delete('idempotency', storeKey);
        } else {
          // A timeout or a lost answer: the order may exist. Keep the order id for the retry (free to take now),
          // and look for it once the upstream has had its time, so no payable order goes unrecorded.
          await store.set<IdempotencyRecord>('idempotency', storeKey, {
            ...claim,
            uncertain: true,
            claimedAt: 0,
          });
          void reconcile(storeKey, body, product, origin, 0);
        }
        throw error;
      }
    });
  }

  /**
   * Records the order an uncertain attempt made, if it did and no retry has: looks after 1, 3, 9 and 27 upstream
   * timeouts (the call may still be running upstream). Errors are only logged.
   */
  async function reconcile(
    storeKey: string,
    body: CreateOrderBody,
    product: OrderProduct,
    origin: string | null,
    attempt: number,
  ): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, config.upstreamTimeoutMs * 3 ** attempt).unref());
    const settled = await keyLock
      .run(storeKey, async () => {
        const claim = await store.get<IdempotencyRecord>('idempotency', storeKey);
        if (!claim?.uncertain || claim.state === 'done') return true;
        if (!(await findCreated(claim.orderId))) return false;
        const response = await ledger.track(claim.orderId, createOrder(body, product, claim, origin));
        await store.set<IdempotencyRecord>('idempotency', storeKey, { ...claim, state: 'done', response });
        return true;
      })
      .catch((error: Error) => {
        logger.warn(`[orders] looking for an order after an uncertain create failed: ${error.message}`);
        return false;
      });
    if (!settled && attempt < 3) await reconcile(storeKey, body, product, origin, attempt + 1);
  }

  return openApiRoutes()
    .openapi(createOrderRoute, async (c) => {
      const key = c.req.header('idempotency-key');
      if (key === undefined) throw new AppError('BAD_REQUEST', 'The Idempotency-Key header is required.');
      const checked = idempotencyKeySchema.safeParse(key);
      if (!checked.success) {
        const message = checked.error.issues[0]?.message ?? 'is invalid';
        throw new AppError('VALIDATION_FAILED', `Idempotency-Key: ${message}`, {
          issues: [{ path: 'Idempotency-Key', message }],
        });
      }
      const originHeader = c.req.header('origin');
      const origin = originHeader && config.allowedOrigins.includes(originHeader) ? originHeader : null;
      const { response, replayed } = await createIdempotent(checked.data, c.req.valid('json'), origin);
      if (replayed) c.header('Idempotent-Replayed', 'true');
      return c.json(response, replayed ? 200 : 201);
    })

    .openapi(orderStatusRoute, async (c) => {
      const record = await authorisedOrder(ledger, c);
      const fresh = (await ledger.fresh(record.id)) ?? record;
      c.header('Cache-Control', 'no-store');
      return c.json(orderView(fresh), 200);
    })

    .openapi(orderEventsRoute, async (c) => {
      const record = await authorisedOrder(ledger, c);
      c.header('Cache-Control', 'no-store');
      return streamSSE(c, async (stream) => {
        let last = '';
        let lastAt = '';
        let sequence = 0;
        const send = async (current: OrderRecord) => {
          const data = JSON.stringify(orderView(current));
          // The first read and a published change may race: never send an older state after a newer one.
          if (data === last || current.updatedAt < lastAt || stream.closed) return;
          last = data;
          lastAt = current.updatedAt;
          await stream.writeSSE({ event: 'status', data, id: String(++sequence) });
        };
        await new Promise<void>((resolve) => {
          let finished = false;
          const finish = () => {
            if (finished) return;
            finished = true;
            unsubscribe();
            clearInterval(poll);
            clearInterval(keepAlive);
            resolve();
          };
          const sendThenMaybeFinish = (current: OrderRecord) =>
            send(current)
              .then(() => {
                if (isFinal(current.status)) finish();
              })
              .catch(finish);
          // Listen before the first read: the ledger tells each change once, so a webhook landing between
          // that read and a later subscription would never reach this stream.
          const unsubscribe = ledger.subscribe(record.id, (changed) => void sendThenMaybeFinish(changed));
          // Webhooks may never come (misconfigured URL, firewall): look at the upstream list meanwhile.
          const poll = setInterval(() => void ledger.sync(record.id), ssePollMs);
          const keepAlive = setInterval(
            () => void stream.write(': keep-alive\n\n').catch(finish),
            sseKeepAliveMs,
          );
          stream.onAbort(finish);
          void ledger.fresh(record.id).then((latest) => sendThenMaybeFinish(latest ?? record), finish);
        });
      });
    })

    .openapi(orderReturnRoute, async (c) => {
      const id = c.req.param('id');
      const known = await ledger.get(id);
      if (!known) throw new AppError('NOT_FOUND', 'No such order.');
      // The payer just left the payment page: look now rather than trust a webhook that may be in flight.
      const record = (await ledger.fresh(id, { maxAgeMs: 1000, waitMs: 3000 })) ?? known;
      const { status } = record;
      const dest = c.req.header('sec-fetch-dest');
      const framed = dest === 'iframe' || dest === 'frame';
      c.header('Cache-Control', 'no-store');
      c.header('Referrer-Policy', 'no-referrer');

      if (!framed) {
        if (record.returnUrl) {
          const target = new URL(record.returnUrl);
          target.searchParams.set('orderId', record.id);
          target.searchParams.set('status', status);
          return c.redirect(target.toString(), 303);
        }
        c.header(
          'Content-Security-Policy',
          "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
        );
        return c.html(
          page('Payment', `<p>${escapeHtml(statusSentence[status])}</p><p>You can close this window.</p>`),
        );
      }

      // The widget framing the payment page listens for this; only the merchant's origin may read it.
      const targetOrigin = record.returnUrl
        ? new URL(record.returnUrl).origin
        : (record.origin ?? config.allowedOrigins[0]);
      const nonce = randomBytes(16).toString('base64');
      const message = { type: 'crypto-checkout:return', orderId: record.id, status };
      const script = targetOrigin
        ? `window.parent.postMessage(${scriptJson(message)}, ${scriptJson(targetOrigin)});`
        : '';
      c.header(
        'Content-Security-Policy',
        `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; frame-ancestors ${config.allowedOrigins.join(' ') || "'none'"}`,
      );
      return c.html(page('Payment', `<p>${escapeHtml(statusSentence[status])}</p>`, script, nonce));
    });
}
