/**
 * What the merchant may do with an order whose money went wrong (POST /api/admin/orders/{id}/accept and
 * /request-rest, routes/admin/order-actions.ts): accept an underpaid or late order as paid, or ask the shopper for
 * exactly what is missing. Each decision is pure over the record (the ledger's `act` runs it under the order's
 * lock, with its events), and each is idempotent: asked again once done, it changes nothing and answers the same.
 */
import { AppError } from '../errors.ts';
import { balanceOf } from './balance.ts';
import type { OrderRecord } from './order.ts';
import { payByOf } from './payment-policy.ts';

/** Underpaid or paid late → paid, with who accepted it (`order.paid` carries `acceptedBy`). */
export function acceptAsPaid(record: OrderRecord, by: string, at: string): OrderRecord | undefined {
  if (record.status === 'paid' && record.accepted) return undefined;
  if (record.status !== 'underpaid' && record.status !== 'paid_late') {
    throw new AppError(
      'ORDER_STATE_CONFLICT',
      `The order is ${record.status}: only an underpaid or late-paid order can be accepted as paid.`,
    );
  }
  return {
    ...record,
    status: 'paid',
    accepted: { by, at, from: record.status },
    updatedAt: at,
    history: [
      ...record.history,
      { status: 'paid', upstreamStatus: record.upstreamStatus, at, source: 'merchant' },
    ],
  };
}

/**
 * Underpaid → the shopper is asked for the rest: exactly the shortfall, in the crypto paid, to the same upstream
 * order (its own payment page and address, which take top-ups until the order's expiry: docs/upstream.md).
 * Paying it moves the upstream order to paid, and the order has its one `order.paid`.
 */
export function requestRest(record: OrderRecord, by: string, at: string): OrderRecord | undefined {
  if (record.rest && record.status === 'underpaid') return undefined;
  const { shortfall, due } = balanceOf(record);
  if (record.status !== 'underpaid' || !shortfall || !due) {
    throw new AppError(
      'ORDER_STATE_CONFLICT',
      `The order is ${record.status}: the rest can be asked for only while it is underpaid and can still be paid.`,
    );
  }
  return {
    ...record,
    updatedAt: at,
    rest: {
      requestedBy: by,
      at,
      remaining: { amount: shortfall, currency: record.paid?.currency ?? due.currency },
      payBy: payByOf(record),
      payTo: { url: record.link },
    },
  };
}
