/**
 * The shopper's refund claim link, `/refunds/{token}` (refunds/claim-page.ts draws it): GET shows the refund and
 * its state, POST gives (or corrects) the refund address. A form post answers 303 back to the page, or the page
 * again with the reason (422); a JSON post (`{ address, memo? }`) answers the refund as the order view shows it,
 * or the error envelope (ADDRESS_INVALID with the reason). The token is the only credential: unknown tokens
 * read as not found, the same for every kind of wrong.
 */
import { $, createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { limitBody } from '../middleware/security.ts';
import { errorResponses, jsonResponse, openApiRoutes, otherResponse } from '../openapi.ts';
import { orderRefundSchema } from '../orders/order.ts';
import { claimPage, unknownClaimPage } from '../refunds/claim-page.ts';
import { refundView } from '../refunds/refund.ts';
import type { Refunds } from '../refunds/refunds.ts';

const claimBody = z.object({
  address: z.string().max(200, 'is at most 200 characters').default(''),
  memo: z.string().max(200, 'is at most 200 characters').optional(),
});

export function refundClaimRoutes(deps: AppDeps, refunds: Refunds) {
  const { publicUrl } = deps.config;
  const nonceOf = (c: { get(key: 'secureHeadersNonce'): string | undefined }) =>
    c.get('secureHeadersNonce') ?? '';
  const params = z.object({ token: z.string().min(1).max(200).describe('The claim token (`ref_….secret`)') });
  const pageRoute = createRoute({
    method: 'get',
    path: '/{token}',
    tags: ['Refunds'],
    summary: 'The refund claim page: what is refunded, a form for the address, later the refund’s state',
    request: { params },
    responses: {
      200: otherResponse('text/html', 'The page (strict CSP, no script)'),
      404: otherResponse('text/html', 'No refund has this link'),
    },
  });
  const giveRoute = createRoute({
    method: 'post',
    path: '/{token}',
    tags: ['Refunds'],
    summary: 'Gives (or corrects, until sent) the refund address: a form post, or JSON `{ address, memo? }`',
    middleware: [limitBody(8 * 1024)] as const,
    request: { params },
    responses: {
      200: jsonResponse(orderRefundSchema, 'JSON: the refund, its address received'),
      303: { description: 'A form post: back to the page, which shows the address received' },
      // A form post refused answers the page again (422, text/html) with the reason; JSON, the envelope.
      ...errorResponses('NOT_FOUND', 'ADDRESS_INVALID', 'VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE'),
    },
  });
  const routes = openApiRoutes();
  routes.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  return $(routes)
    .openapi(pageRoute, async (c) => {
      const refund = await refunds.byToken(c.req.param('token'));
      if (!refund) return c.html(await unknownClaimPage(nonceOf(c)), 404);
      return c.html(await claimPage(refund, nonceOf(c)), 200);
    })
    .openapi(giveRoute, async (c) => {
      const refund = await refunds.byToken(c.req.param('token'));
      const json = (c.req.header('content-type') ?? '').includes('application/json');
      if (!refund) {
        if (json) throw new AppError('NOT_FOUND', 'No refund has this link.');
        return c.html(await unknownClaimPage(nonceOf(c)), 404);
      }
      const raw = json
        ? await c.req.json().catch(() => undefined)
        : await c.req.parseBody().catch(() => undefined);
      const parsed = claimBody.safeParse(raw);
      if (!parsed.success)
        throw new AppError(
          'VALIDATION_FAILED',
          'Give the refund address (and the memo, where it is needed).',
          {
            issues: parsed.error.issues.map((issue) => ({
              path: issue.path.join('.'),
              message: issue.message,
            })),
          },
        );
      const { address, memo } = parsed.data;
      try {
        const updated = await refunds.provideAddress(refund, address, memo);
        if (json) return c.json(refundView(publicUrl, updated), 200);
        // Relative to /refunds/{token}: the page again, wherever the backend is mounted.
        return c.redirect(encodeURIComponent(c.req.param('token')), 303);
      } catch (error) {
        if (json || !(error instanceof AppError) || error.code !== 'ADDRESS_INVALID') throw error;
        const field = (error.extra.details?.['field'] as 'address' | 'memo' | undefined) ?? 'address';
        const reason = error.extra.issues?.[0]?.message ?? error.message;
        const page = await claimPage(refund, nonceOf(c), { field, reason }, { address, memo: memo ?? '' });
        return c.html(page, 422);
      }
    });
}
