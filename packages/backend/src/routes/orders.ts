/**
 * `/api/orders`: create (idempotent), read the status (JSON or server-sent events, each behind the order's status
 * token), and the return route the payment page sends the payer to. What each does is in orders/.
 */
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { idempotency } from '../middleware/idempotency.ts';
import {
  errorResponses,
  jsonBody,
  jsonResponse,
  openApiRoutes,
  otherResponse,
  securedBy,
} from '../openapi.ts';
import { createOrderMaker } from '../orders/create.ts';
import type { OrderLedger } from '../orders/ledger.ts';
import {
  newOrderId,
  newStatusToken,
  type OrderRecord,
  orderViewSchema,
  statusTokenMatches,
} from '../orders/order.ts';
import { orderView } from '../orders/order-view.ts';
import { returnAnswer } from '../orders/return-page.ts';
import { createdOrderSchema, createOrderBody } from '../orders/schemas.ts';
import { statusStream } from '../orders/status-stream.ts';
import type { ProductCatalog } from '../products.ts';
import { refundView } from '../refunds/refund.ts';
import type { Refunds } from '../refunds/refunds.ts';
import { UpstreamRefusal } from '../upstream/http.ts';

const orderParams = z.object({ id: z.string() });
/** Checked by the handlers (a missing or wrong one is 401, not 422), so documented as plain parameters. */
const statusTokenHeader = {
  name: 'X-Status-Token',
  in: 'header' as const,
  required: false,
  description: 'Or `?token=`',
  schema: { type: 'string' as const },
};

/** The values an order keeps whichever attempt of its Idempotency-Key makes it. */
type OrderSeed = { orderId: string; statusToken: string };

export function orderRoutes(deps: AppDeps, ledger: OrderLedger, catalog: ProductCatalog, refunds: Refunds) {
  const { config, payments, store, clock, metrics } = deps;
  const maker = createOrderMaker({ config, payments, clock, ledger, catalog, metrics });

  const createOrderRoute = createRoute({
    method: 'post',
    path: '/',
    tags: ['Orders'],
    summary: 'Create a payment order for a product or a checkout token',
    description:
      'The same Idempotency-Key with the same body answers the same order (200, Idempotent-Replayed).',
    middleware: [
      idempotency<OrderSeed>({
        store,
        clock,
        // A killed process's claim is free once the order it may have been making upstream has been made.
        owners: deps.claimOwners,
        callEndsWithinMs: 2 * config.upstreamTimeoutMs,
        scope: 'orders',
        body: createOrderBody,
        seed: () => ({ orderId: newOrderId(), statusToken: newStatusToken() }),
        // A refusal of the request (4xx), ours or the upstream's: no order was made.
        madeNothing: (error) =>
          error instanceof UpstreamRefusal
            ? error.upstreamStatus < 500
            : error instanceof AppError && error.status < 500,
        // Looks after 1, 3, 9 and 27 upstream timeouts (the call may still be running upstream).
        reconcileAfterMs: (attempt) => (attempt <= 3 ? config.upstreamTimeoutMs * 3 ** attempt : undefined),
      }),
    ] as const,
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

  /** The order `:id`, if the request carries its status token (header or `?token=`). */
  async function authorisedOrder(c: Context): Promise<OrderRecord> {
    const record = await ledger.get(c.req.param('id') ?? '');
    if (!record) throw new AppError('NOT_FOUND', 'No such order.');
    const token = c.req.header('x-status-token') ?? c.req.query('token') ?? undefined;
    if (!statusTokenMatches(record, token)) {
      throw new AppError('UNAUTHORIZED', 'A valid status token for this order is required.');
    }
    return record;
  }

  return openApiRoutes()
    .openapi(createOrderRoute, async (c) => {
      const body = c.req.valid('json');
      const claim = c.get('idempotency');
      const originHeader = c.req.header('origin');
      const origin = originHeader && config.allowedOrigins.includes(originHeader) ? originHeader : null;
      const product = await maker.prepare(body);
      claim.reconcile(() => maker.reconcile(body, product, claim, origin));
      return c.json(await maker.create(body, product, claim, origin), 201);
    })

    .openapi(
      createRoute({
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
      }),
      async (c) => {
        const record = await authorisedOrder(c);
        const fresh = (await ledger.fresh(record.id)) ?? record;
        c.header('Cache-Control', 'no-store');
        const made = await refunds.ofOrder(record.id);
        const view = orderView(fresh);
        if (made.length) view.refunds = made.map((refund) => refundView(config.publicUrl, refund));
        return c.json(view, 200);
      },
    )

    .openapi(
      createRoute({
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
      }),
      async (c) =>
        statusStream(c, ledger, await authorisedOrder(c), deps.metrics.streamOpened, deps.lifecycle),
    )

    .openapi(
      createRoute({
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
      }),
      async (c) => {
        const id = c.req.param('id');
        const known = await ledger.get(id);
        if (!known) throw new AppError('NOT_FOUND', 'No such order.');
        // The payer just left the payment page: look now rather than trust a webhook that may be in flight.
        const record = (await ledger.fresh(id, { maxAgeMs: 1000, waitMs: 3000 })) ?? known;
        return returnAnswer(c, record, config.allowedOrigins);
      },
    );
}
