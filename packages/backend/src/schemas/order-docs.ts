/**
 * OpenAPI descriptors of the order routes (`routes/orders.ts`), built from the schemas that module validates
 * with. The response schemas are checked against the types the handlers return (`SameAs` below), so the
 * reference cannot drift from what the routes send. (They sit here rather than in `routes/orders.ts` only so
 * that file stays small; moving them changes nothing else.)
 */
import { z } from 'zod';
import type { OrderView } from '../order-ledger.ts';
import { orderStatuses } from '../order-status.ts';
import { type CreateOrderResponse, createOrderBody, idempotencyKeySchema } from '../routes/orders.ts';
import { type Assert, describeRoute, type SameAs } from './openapi-registry.ts';

const orderStatus = z.enum(orderStatuses);

export const orderViewSchema = z.object({
  orderId: z.string(),
  status: orderStatus,
  final: z.boolean().describe('paid, overpaid, expired and failed are final'),
  upstreamStatus: z.string(),
  amount: z.string(),
  currency: z.string(),
  paid: z.object({ amount: z.string(), currency: z.string() }).optional(),
  returnUrl: z.string().optional(),
  updatedAt: z.string(),
});

export const createdOrderSchema = z.object({
  orderId: z.string(),
  link: z.string().describe("The upstream's payment page"),
  status: orderStatus,
  expiresAt: z.string().nullable(),
  statusToken: z.string().describe('Needed to read the status; shown only in this answer and its replays'),
  product: z.object({ name: z.string(), price: z.string(), currency: z.string() }),
});

export type OrderViewIsDocumented = Assert<SameAs<typeof orderViewSchema, OrderView>>;
export type CreatedOrderIsDocumented = Assert<SameAs<typeof createdOrderSchema, CreateOrderResponse>>;

const orderParams = z.object({ id: z.string() });
const statusToken = z.object({ 'X-Status-Token': z.string().optional().describe('Or `?token=`') });

export const orderDocs = [
  describeRoute({
    method: 'post',
    path: '/api/orders',
    tag: 'Orders',
    summary: 'Create a payment order for a product or a checkout token',
    description:
      'The same Idempotency-Key with the same body answers the same order (200, Idempotent-Replayed).',
    request: { body: createOrderBody, headers: z.object({ 'Idempotency-Key': idempotencyKeySchema }) },
    responses: {
      201: { description: 'Created', schema: createdOrderSchema },
      200: {
        description: 'Replay of the same key and body',
        schema: createdOrderSchema,
        headers: { 'Idempotent-Replayed': 'true' },
      },
    },
    errors: [
      'BAD_REQUEST',
      'VALIDATION_FAILED',
      'NOT_FOUND',
      'TOKEN_INVALID',
      'TOKEN_EXPIRED',
      'IDEMPOTENCY_CONFLICT',
      'RETURN_URL_NOT_ALLOWED',
      'UPSTREAM_ERROR',
      'UPSTREAM_TIMEOUT',
    ],
  }),
  describeRoute({
    method: 'get',
    path: '/api/orders/{id}',
    tag: 'Orders',
    summary: "An order's status",
    request: { params: orderParams, headers: statusToken },
    responses: { 200: { description: 'The order', schema: orderViewSchema } },
    errors: ['UNAUTHORIZED', 'NOT_FOUND'],
    security: 'statusToken',
  }),
  describeRoute({
    method: 'get',
    path: '/api/orders/{id}/events',
    tag: 'Orders',
    summary: 'Server-sent `status` events with the OrderView, until a final status',
    request: { params: orderParams, query: z.object({ token: z.string() }) },
    responses: { 200: { description: 'Event stream', contentType: 'text/event-stream' } },
    errors: ['UNAUTHORIZED', 'NOT_FOUND'],
  }),
  describeRoute({
    method: 'get',
    path: '/api/orders/{id}/return',
    tag: 'Orders',
    summary: 'Where the payment page sends the payer (303 at top level, a postMessage page in an iframe)',
    request: { params: orderParams },
    responses: {
      303: { description: "Redirect to the merchant's returnUrl with orderId and status" },
      200: { description: 'A page that tells the embedding widget', contentType: 'text/html' },
    },
    errors: ['NOT_FOUND'],
  }),
];
