/**
 * Descriptors of the order, token, deposit-address, webhook and admin routes, built from the schemas those
 * route modules export. (Kept here rather than in the modules while they are being written; moving each list
 * next to its routes changes nothing else.)
 */
import { z } from 'zod';
import { adminOrdersQuery, paymentLinkBody } from '../routes/admin.ts';
import { verifyCheckoutTokenBody } from '../routes/checkout-tokens.ts';
import { depositAddressBody } from '../routes/deposit-addresses.ts';
import { createOrderBody, idempotencyKeySchema } from '../routes/orders.ts';
import { describeRoute } from './openapi-registry.ts';

const orderStatus = z.enum([
  'pending',
  'awaiting_payment',
  'underpaid',
  'paid',
  'overpaid',
  'expired',
  'failed',
]);
const productView = z.object({
  name: z.string(),
  description: z.string().optional(),
  image: z.string().nullable().optional(),
  price: z.string(),
  currency: z.string(),
});
const orderView = z.object({
  orderId: z.string(),
  status: orderStatus,
  final: z.boolean(),
  upstreamStatus: z.string().nullable(),
  amount: z.string(),
  currency: z.string(),
  paid: z.object({ amount: z.string(), currency: z.string() }).optional(),
  returnUrl: z.string().optional(),
  updatedAt: z.string(),
});
const orderParams = z.object({ id: z.string() });
const statusToken = z.object({ 'X-Status-Token': z.string().optional().describe('Or `?token=`') });

export const serverOnlyRouteDocs = [
  describeRoute({
    method: 'post',
    path: '/api/checkout-tokens/verify',
    tag: 'Orders',
    summary: 'What a merchant-minted checkout token charges',
    request: { body: verifyCheckoutTokenBody },
    responses: {
      200: {
        description: 'The product the token stands for',
        schema: z.object({
          product: productView.extend({ reference: z.string().optional() }),
          expiresAt: z.string(),
        }),
      },
    },
    errors: ['VALIDATION_FAILED', 'TOKEN_INVALID', 'TOKEN_EXPIRED'],
  }),
  describeRoute({
    method: 'post',
    path: '/api/orders',
    tag: 'Orders',
    summary: 'Create a payment order for a product or a checkout token',
    description:
      'The same Idempotency-Key with the same body answers the same order (200, Idempotent-Replayed).',
    request: { body: createOrderBody, headers: z.object({ 'Idempotency-Key': idempotencyKeySchema }) },
    responses: {
      201: {
        description: 'Created',
        schema: z.object({
          orderId: z.string(),
          link: z.string(),
          status: orderStatus,
          expiresAt: z.string().nullable(),
          statusToken: z.string(),
          product: productView,
        }),
      },
      200: { description: 'Replay of the same key and body', headers: { 'Idempotent-Replayed': 'true' } },
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
    responses: { 200: { description: 'The order', schema: orderView } },
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
  describeRoute({
    method: 'post',
    path: '/api/deposit-addresses',
    tag: 'Deposits',
    summary: "The customer's permanent deposit address on a chain (created once, then reused)",
    request: { body: depositAddressBody },
    responses: {
      200: {
        description: 'The address',
        schema: z.object({
          chain: z.string(),
          address: z.string(),
          memo: z.string().nullable(),
          currencies: z.array(z.string()),
          qrSvg: z.string(),
          createdAt: z.string(),
          reused: z.boolean(),
        }),
      },
    },
    errors: ['VALIDATION_FAILED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'UPSTREAM_ERROR', 'UPSTREAM_TIMEOUT'],
  }),
  describeRoute({
    method: 'post',
    path: '/api/webhooks/payments',
    tag: 'Webhooks',
    summary: 'Payments API events (x-swapped-signature; both payload casings)',
    responses: { 200: { description: 'Applied (or already applied)' } },
    errors: ['UNAUTHORIZED', 'BAD_REQUEST'],
    security: 'webhookSignature',
  }),
  describeRoute({
    method: 'post',
    path: '/api/webhooks/ramp',
    tag: 'Webhooks',
    summary: 'Ramp order callbacks (`signature` header)',
    responses: { 200: { description: 'Applied (or already applied)' } },
    errors: ['UNAUTHORIZED', 'BAD_REQUEST'],
    security: 'webhookSignature',
  }),
  describeRoute({
    method: 'get',
    path: '/api/admin/orders',
    tag: 'Merchant',
    summary: "The merchant's orders, with payments and updates",
    request: { query: adminOrdersQuery },
    responses: { 200: { description: 'A page of orders', contentType: 'application/json' } },
    errors: ['UNAUTHORIZED', 'VALIDATION_FAILED', 'UPSTREAM_ERROR', 'UPSTREAM_TIMEOUT'],
    security: 'admin',
  }),
  describeRoute({
    method: 'post',
    path: '/api/admin/payment-links',
    tag: 'Merchant',
    summary: 'A payment link: name, internal note, optional image, display currency and amount',
    request: { body: paymentLinkBody },
    responses: {
      201: {
        description: 'Created',
        schema: z.object({ orderId: z.string(), link: z.string(), expiresAt: z.string().nullable() }),
      },
    },
    errors: ['UNAUTHORIZED', 'VALIDATION_FAILED', 'UPSTREAM_ERROR', 'UPSTREAM_TIMEOUT'],
    security: 'admin',
  }),
];
