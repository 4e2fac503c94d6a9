/** What the upstream says about one of its orders (its status, what was paid), and how its ids compare. */
import { plainString, sum } from '../money.ts';
import type { UpstreamOrder } from '../schemas/upstream-payments.ts';

/** What the upstream says about an order: its status and, when known, what was paid. */
export interface UpstreamFacts {
  upstreamStatus: string;
  paid?: { amount: string; currency: string } | null;
}

/** Status and paid amount read from an upstream order (list or create answer). */
export function factsOf(order: UpstreamOrder): UpstreamFacts | undefined {
  if (!order.status) return undefined;
  const payments = order.payments.filter((payment) => payment.receivedAmount && payment.receivedCurrency);
  const currency = payments[0]?.receivedCurrency;
  const same = payments.filter((payment) => payment.receivedCurrency === currency);
  return {
    upstreamStatus: order.status,
    paid: currency ? { amount: plainString(sum(same.map((p) => p.receivedAmount ?? '0'))), currency } : null,
  };
}

/**
 * Whether two upstream order ids name the same order: the older payloads and answers prefix ids with `SP-`, the
 * newer do not. Ids are kept as they came; only comparisons are lenient.
 */
export const sameUpstreamOrder = (a: string, b: string) => a.replace(/^SP-/, '') === b.replace(/^SP-/, '');

/** An upstream id as the ledger indexes it (without the `SP-` prefix). */
export const upstreamKey = (upstreamId: string) => upstreamId.replace(/^SP-/, '');

/** What a payments webhook says of an order: its status, and what was paid when it names the crypto and amount. */
export function factsOfWebhook(event: {
  orderStatus: string | null;
  crypto: string | null;
  cryptoAmount: string | null;
}): UpstreamFacts | undefined {
  if (!event.orderStatus) return undefined;
  return {
    upstreamStatus: event.orderStatus,
    paid: event.crypto && event.cryptoAmount ? { amount: event.cryptoAmount, currency: event.crypto } : null,
  };
}
