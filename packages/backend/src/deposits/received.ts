/**
 * A payment into a customer's permanent deposit address: the upstream reports it as an order of the address's
 * payment route, whose `externalId` is the shop's customer id. Told to the merchant as `deposit.received`, once
 * per upstream order (the event's id is derived from it).
 */
import type { Clock } from '../clock.ts';
import { depositEvents } from '../events/fulfilment-events.ts';
import type { Outbox } from '../events/outbox.ts';
import { mapUpstreamStatus } from '../orders/status.ts';
import type { PaymentsWebhook } from '../schemas/upstream-payments.ts';
import type { Store } from '../store/store.ts';
import type { RouteRecord } from './addresses.ts';

export interface DepositsDeps {
  store: Store;
  clock: Clock;
  outbox: Pick<Outbox, 'record'>;
}

/**
 * Records the `deposit.received` event a payments webhook tells of, if it is a paid order of one of our
 * customers' routes; false when it is not (an order this backend knows nothing of).
 */
export async function depositReceived({ store, clock, outbox }: DepositsDeps, event: PaymentsWebhook) {
  const customerId = event.externalId ?? event.customerId;
  const paid = mapUpstreamStatus(event.orderStatus ?? '');
  if (!customerId || !event.orderId || !event.crypto || !event.cryptoAmount) return false;
  if (paid !== 'paid' && paid !== 'overpaid' && paid !== 'underpaid') return false;
  const routes = await store.values<RouteRecord>('routes');
  const route = routes.find((r) => r.customerId === customerId);
  if (!route) return false;
  const at = new Date(clock.now()).toISOString();
  await outbox.record(
    depositEvents({
      customerId,
      chain: route.chain,
      address: route.address,
      upstreamOrderId: event.orderId,
      crypto: event.crypto,
      amount: event.cryptoAmount,
      status: paid,
      receivedAt: at,
    }),
    at,
  );
  return true;
}
