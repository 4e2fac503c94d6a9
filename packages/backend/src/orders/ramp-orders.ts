/**
 * Ramp orders: the ramp's own orders (a shopper buying or selling crypto on its page), as its callbacks report
 * them. Kept in the store's `ramp-orders` collection by order_id; a callback is applied only if it is progress,
 * and the change and the fulfilment events it causes (`ramp.completed`, `ramp.cancelled`) land together.
 */
import type { Clock } from '../clock.ts';
import { type RampOrderFacts, rampEvents } from '../events/fulfilment-events.ts';
import type { Outbox } from '../events/outbox.ts';
import { createKeyedLock } from '../keyed-lock.ts';
import type { RampCallback } from '../schemas/upstream-ramp.ts';
import type { Store } from '../store/store.ts';

/** What we keep of a ramp order reported by callbacks (collection `ramp-orders`, keyed by its order_id). */
export interface RampOrderRecord extends RampOrderFacts {
  history: Array<{ status: string; at: string }>;
  createdAt: string;
}

/** Ramp order statuses (docs/upstream.md#ramp-webhooks): completed may still be broadcast; cancelled only before completion. */
const rampRanks: Record<string, number> = {
  payment_pending: 0,
  payout_pending: 1,
  order_completed: 2,
  order_broadcasted: 3,
  order_cancelled: 3,
};
const rampFinals = new Set(['order_broadcasted', 'order_cancelled']);

/** Whether a ramp order at `current` (absent: not seen yet) moving to `next` is progress. */
export function isRampProgress(current: string | undefined, next: string): boolean {
  const to = rampRanks[next];
  if (to === undefined) return false;
  if (current === undefined) return true;
  if (rampFinals.has(current)) return false;
  if (next === 'order_cancelled' && current === 'order_completed') return false;
  return to > (rampRanks[current] ?? -1);
}

export interface RampOrdersDeps {
  store: Store;
  clock: Clock;
  outbox: Pick<Outbox, 'record'>;
}

export function createRampOrders({ store, clock, outbox }: RampOrdersDeps) {
  const lock = createKeyedLock();
  return {
    /**
     * Records what a callback tells, if it is progress (a field it leaves out keeps what an earlier one said).
     * Returns whether anything changed.
     */
    apply(event: RampCallback): Promise<boolean> {
      return lock.run(event.order_id, () =>
        store.transaction(async (tx) => {
          const current = await tx.get<RampOrderRecord>('ramp-orders', event.order_id);
          if (!isRampProgress(current?.status, event.order_status)) return false;
          const at = new Date(clock.now()).toISOString();
          const next: RampOrderRecord = {
            orderId: event.order_id,
            status: event.order_status,
            type: event.order_type ?? current?.type ?? null,
            crypto: event.order_crypto ?? current?.crypto ?? null,
            cryptoAmount: event.order_crypto_amount ?? current?.cryptoAmount ?? null,
            network: event.network ?? current?.network ?? null,
            address: event.order_crypto_address ?? current?.address ?? null,
            transactionId: event.transaction_id ?? current?.transactionId ?? null,
            externalCustomerId: event.external_customer_id ?? current?.externalCustomerId ?? null,
            amountEur: event.order_amount_eur ?? current?.amountEur ?? null,
            history: [...(current?.history ?? []), { status: event.order_status, at }],
            createdAt: current?.createdAt ?? at,
            updatedAt: at,
          };
          await outbox.record(rampEvents(current, next), at, tx);
          await tx.set('ramp-orders', event.order_id, next);
          return true;
        }),
      );
    },
  };
}

export type RampOrders = ReturnType<typeof createRampOrders>;
