/**
 * The merchant's actions on an order whose money went wrong (orders/merchant-actions.ts decides, the ledger
 * applies under the order's lock with its events): `POST /orders/{id}/accept` (underpaid or paid late → paid,
 * `order.paid` with `acceptedBy`) and `POST /orders/{id}/request-rest` (the shopper is shown exactly what is
 * missing and how to pay it, `order.rest_requested`). Write scope, audited (admin/access.ts); idempotent: asked
 * again once done, each answers the order as it is, with no second event.
 */
import { $, createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { noteAudit } from '../../admin/audit.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { errorResponses, jsonResponse, openApiRoutes } from '../../openapi.ts';
import type { OrderLedger } from '../../orders/ledger.ts';
import { acceptAsPaid, requestRest } from '../../orders/merchant-actions.ts';
import type { OrderRecord } from '../../orders/order.ts';
import { adminErrors, adminRoute } from './admin-route.ts';
import { ledgerOrder, ledgerOrderSchema } from './ledger-order.ts';

const params = z.object({ id: z.string().min(1).max(200) });
const answer = z.object({ order: ledgerOrderSchema });

const actionRoute = (path: string, summary: string) =>
  createRoute({
    ...adminRoute,
    method: 'post',
    path,
    summary,
    request: { params },
    responses: {
      200: jsonResponse(answer, 'The order as it now is (the same when asked again)'),
      ...adminErrors(),
      ...errorResponses('NOT_FOUND', 'ORDER_STATE_CONFLICT'),
    },
  });

const acceptRoute = actionRoute(
  '/orders/{id}/accept',
  'Accepts an underpaid or late-paid order as paid: it becomes paid, and order.paid says who accepted it',
);
const restRoute = actionRoute(
  '/orders/{id}/request-rest',
  'Asks the shopper for the rest of an underpaid order: its view shows the exact remainder and how to pay it',
);

export function orderActionRoutes(_deps: AppDeps, ledger: OrderLedger) {
  const act = async (
    id: string,
    by: string,
    decide: (record: OrderRecord, by: string, at: string) => OrderRecord | undefined,
  ) => {
    // The record as it stands is what an idempotent repeat answers.
    const record = await ledger.act(id, (current, at) => decide(current, by, at));
    if (!record) throw new AppError('NOT_FOUND', 'No such order.');
    return { order: ledgerOrder(record) };
  };
  return $(openApiRoutes())
    .openapi(acceptRoute, async (c) => {
      const { id } = c.req.valid('param');
      noteAudit(c, { target: id });
      return c.json(await act(id, c.get('adminCredential').name, acceptAsPaid), 200);
    })
    .openapi(restRoute, async (c) => {
      const { id } = c.req.valid('param');
      noteAudit(c, { target: id });
      const done = await act(id, c.get('adminCredential').name, requestRest);
      noteAudit(c, { target: id, details: { remaining: done.order.rest?.remaining ?? null } });
      return c.json(done, 200);
    });
}
