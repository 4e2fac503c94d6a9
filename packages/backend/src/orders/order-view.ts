/** What a shopper (holding the status token) reads of an order (`OrderView`, schema in order.ts), from its record. */
import type { OrderRecord, OrderView } from './order.ts';
import { settlementOf } from './settlement.ts';
import { isFinal } from './status.ts';

export function orderView(record: OrderRecord): OrderView {
  const settlement = settlementOf(record);
  return {
    orderId: record.id,
    status: record.status,
    final: isFinal(record.status),
    upstreamStatus: record.upstreamStatus,
    amount: record.product.price,
    currency: record.product.currency,
    ...(record.paid ? { paid: record.paid } : {}),
    ...(settlement ? { settlement } : {}),
    ...(record.returnUrl ? { returnUrl: record.returnUrl } : {}),
    updatedAt: record.updatedAt,
  };
}
