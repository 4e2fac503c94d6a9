/**
 * Refunds on the admin API (refunds/refunds.ts moves them): request one of an order (all or part of it, or of
 * what arrived beyond what was due), record it sent once paid out in the upstream's dashboard (the transaction
 * hash), cancel it, and list them. Writes need the write scope, are audited (admin/access.ts) and take an
 * Idempotency-Key: the same key and body answer the same refund.
 */
import { $, createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { type AuditNote, noteAudit } from '../../admin/audit.ts';
import type { AppDeps, AppEnv } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { idempotency } from '../../middleware/idempotency.ts';
import { positiveDecimal } from '../../money.ts';
import { errorResponses, jsonBody, jsonResponse, openApiRoutes } from '../../openapi.ts';
import { adminRefund, adminRefundSchema, newRefundId } from '../../refunds/refund.ts';
import type { Refunds } from '../../refunds/refunds.ts';
import { adminErrors, adminRoute, intParam } from './admin-route.ts';

export const refundRequestBody = z.strictObject({
  of: z
    .enum(['order', 'excess'])
    .default('order')
    .describe('order: all or part of what was paid; excess: what arrived beyond what was due'),
  amount: positiveDecimal
    .optional()
    .describe('In the crypto paid; absent: all that may still be refunded (of the order, or of the excess)'),
  reason: z.string().trim().min(1).max(500).optional().describe('Shown to the shopper on the claim page'),
});
export const refundSentBody = z.strictObject({
  txHash: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9:_-]{16,200}$/, 'must be the transaction hash (16 to 200 letters and digits)')
    .describe('The transaction that paid the refund out (from the upstream’s dashboard)'),
});
export const refundCancelBody = z.strictObject({
  reason: z.string().trim().min(1).max(500).optional(),
});

const idempotencyHeader = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: true,
  description: '8 to 128 printable ASCII characters; the same key and body answer the same refund',
  schema: { type: 'string' as const, minLength: 8, maxLength: 128 },
};

const refundsResponse = z.object({ refunds: z.array(adminRefundSchema) });

export function refundAdminRoutes(deps: AppDeps, refunds: Refunds) {
  const { store, clock, config } = deps;
  const publicUrl = config.publicUrl;
  /** Each write under its Idempotency-Key: a refusal (4xx) made nothing, so the key is free again. */
  const keyed = (scope: string, body: z.ZodType) =>
    // A key holds for the order or refund of the path: the same key for another is another request.
    idempotency<{ refundId: string }>({
      store,
      clock,
      scope: (c) => `${scope}:${c.req.param('id') ?? ''}`,
      body,
      seed: () => ({ refundId: newRefundId() }),
      madeNothing: (error) => error instanceof AppError && error.status < 500,
      // Nothing upstream is called: an attempt that died either wrote its refund or did not (one transaction).
      reconcileAfterMs: () => undefined,
      staleClaimMs: 30_000,
    });
  // The idempotency claim widens the routes' context; the audit note and the credential are the app's own.
  const audited = (c: unknown, note: AuditNote) => noteAudit(c as Context<AppEnv>, note);
  const credentialOf = (c: unknown) => (c as Context<AppEnv>).get('adminCredential').name;

  const requestRoute = createRoute({
    ...adminRoute,
    method: 'post',
    path: '/orders/{id}/refunds',
    summary:
      'Requests a refund of an order (or of its excess), in the crypto paid; the shopper gets a claim link',
    middleware: [keyed('refunds', refundRequestBody)] as const,
    parameters: [idempotencyHeader],
    request: { params: z.object({ id: z.string().min(1).max(200) }), body: jsonBody(refundRequestBody) },
    responses: {
      201: jsonResponse(adminRefundSchema, 'Requested: refund.requested is written'),
      200: jsonResponse(adminRefundSchema, 'Replay of the same key and body'),
      ...adminErrors(),
      ...errorResponses('NOT_FOUND', 'REFUND_TOO_LARGE', 'REFUND_NOT_ALLOWED', 'IDEMPOTENCY_CONFLICT'),
    },
  });
  const sentRoute = createRoute({
    ...adminRoute,
    method: 'post',
    path: '/refunds/{id}/sent',
    summary: 'Records a refund paid out (in the upstream’s dashboard) with its transaction hash',
    middleware: [keyed('refund-sent', refundSentBody)] as const,
    parameters: [idempotencyHeader],
    request: { params: z.object({ id: z.string().min(1).max(100) }), body: jsonBody(refundSentBody) },
    responses: {
      200: jsonResponse(adminRefundSchema, 'Sent: refund.sent is written'),
      ...adminErrors(),
      ...errorResponses('NOT_FOUND', 'REFUND_STATE', 'IDEMPOTENCY_CONFLICT'),
    },
  });
  const cancelRoute = createRoute({
    ...adminRoute,
    method: 'post',
    path: '/refunds/{id}/cancel',
    summary: 'Cancels a refund not yet sent (what it held may be refunded again)',
    middleware: [keyed('refund-cancel', refundCancelBody)] as const,
    parameters: [idempotencyHeader],
    request: { params: z.object({ id: z.string().min(1).max(100) }), body: jsonBody(refundCancelBody) },
    responses: {
      200: jsonResponse(adminRefundSchema, 'Cancelled: refund.cancelled is written'),
      ...adminErrors(),
      ...errorResponses('NOT_FOUND', 'REFUND_STATE', 'IDEMPOTENCY_CONFLICT'),
    },
  });
  const listRoute = createRoute({
    ...adminRoute,
    method: 'get',
    path: '/refunds',
    summary: 'Refunds, newest first (or one order’s, oldest first)',
    request: {
      query: z.strictObject({ orderId: z.string().min(1).max(200).optional(), limit: intParam(1, 200, 50) }),
    },
    responses: { 200: jsonResponse(refundsResponse, 'Refunds'), ...adminErrors() },
  });

  return $(openApiRoutes())
    .openapi(requestRoute, async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const { refundId } = c.get('idempotency');
      audited(c, { target: id, details: { refundId, of: body.of, amount: body.amount ?? 'all' } });
      const refund = await refunds.request({
        id: refundId,
        orderId: id,
        of: body.of,
        amount: body.amount,
        reason: body.reason,
        by: credentialOf(c),
      });
      audited(c, { details: { refundId, of: refund.of, amount: refund.amount, currency: refund.currency } });
      return c.json(adminRefund(publicUrl, refund), 201);
    })
    .openapi(sentRoute, async (c) => {
      const { id } = c.req.valid('param');
      const { txHash } = c.req.valid('json');
      const refund = await refunds.get(id);
      audited(c, { target: refund?.orderId ?? id, details: { refundId: id, txHash } });
      return c.json(adminRefund(publicUrl, await refunds.markSent(id, txHash, credentialOf(c))), 200);
    })
    .openapi(cancelRoute, async (c) => {
      const { id } = c.req.valid('param');
      const { reason } = c.req.valid('json');
      const refund = await refunds.get(id);
      audited(c, { target: refund?.orderId ?? id, details: { refundId: id, reason: reason ?? null } });
      return c.json(adminRefund(publicUrl, await refunds.cancel(id, credentialOf(c))), 200);
    })
    .openapi(listRoute, async (c) => {
      const { orderId, limit } = c.req.valid('query');
      const found = orderId ? (await refunds.ofOrder(orderId)).slice(0, limit) : await refunds.list(limit);
      return c.json({ refunds: found.map((refund) => adminRefund(publicUrl, refund)) }, 200);
    });
}
