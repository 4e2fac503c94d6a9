/**
 * What every transition of a payment order shares: the shape of a transition (the next record and the events it
 * caused), its context, the refusal a state does not allow, and the helpers that write the order's updates.
 * The transitions themselves: order-transitions.ts (creation, the payer's steps, expiry, cancel) and
 * payment-receipts.ts (payments and route deposits).
 */
import { type Chain, CRYPTOS } from './currencies.ts';
import type { RandomSource } from './ids.ts';
import type { Order, OrderRecord, OrderStatus, Payment, Update } from './order.ts';

export type OrderEvent =
  | { type: 'ORDER_CREATED' }
  | { type: 'PAYMENT_RECEIVED'; payment: Payment }
  | { type: 'ORDER_COMPLETED'; payment: Payment };

export interface Transition {
  record: OrderRecord;
  events: OrderEvent[];
}

export interface Context {
  now: number;
  random: RandomSource;
}

/** A transition the order's current state does not allow: the API answers 409 with this message. */
export class TransitionError extends Error {
  override readonly name = 'TransitionError';
}

export const iso = (ms: number) => new Date(ms).toISOString();

export function update(
  ctx: Context,
  message: string,
  authorId: string,
  metadata: Record<string, string>,
): Update {
  return { id: ctx.random.uuid(), message, entityType: 'ORDER', authorId, metadata, timestamp: iso(ctx.now) };
}

export function moved(
  record: OrderRecord,
  to: OrderStatus,
  ctx: Context,
  message: string,
  author: string,
): Order {
  const from = record.order.status;
  return {
    ...record.order,
    status: to,
    updates: [...record.order.updates, update(ctx, message, author, { fromStatus: from, toStatus: to })],
  };
}

export function chainOf(code: string): Chain {
  const row = CRYPTOS[code];
  if (!row) throw new TransitionError(`Unsupported currency ${code}`);
  return row.chain;
}

export const isExpired = (order: Order, now: number) => now >= Date.parse(order.expiresAt);

export function refuse(record: OrderRecord, action: string): never {
  throw new TransitionError(`Order ${record.order.id} is ${record.order.status}; cannot ${action}`);
}
