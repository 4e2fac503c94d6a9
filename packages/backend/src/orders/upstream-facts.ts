/** What the upstream says about one of its orders (its status, what was paid), and how its ids compare. */
import { plainString, sum } from '../money.ts';
import type { UpstreamOrder } from '../schemas/upstream-payments.ts';

/** One payment into an order, as the upstream tells it. */
export interface PaymentFact {
  amount: string;
  crypto: string;
  /** The chain, where the upstream names it. */
  network: string | null;
  txHash: string | null;
  confirmedAt: string | null;
}

/** Who paid, as the upstream knows it (what the payer typed on its page, or what we sent). */
export interface CustomerFacts {
  name: string | null;
  email: string | null;
  country: string | null;
}

/** What the upstream says about an order: its status and, when known, what was paid, how, and by whom. */
export interface UpstreamFacts {
  upstreamStatus: string;
  paid?: { amount: string; currency: string } | null;
  /** What is due in the crypto the payer picked (the upstream order's `quote.toAmount`), where it says. */
  due?: { amount: string; currency: string } | null;
  payments?: PaymentFact[] | undefined;
  customer?: CustomerFacts | undefined;
}

/** Status, paid amount, payments and customer read from an upstream order (list or create answer). */
export function factsOf(order: UpstreamOrder): UpstreamFacts | undefined {
  if (!order.status) return undefined;
  const payments = order.payments.filter((payment) => payment.receivedAmount && payment.receivedCurrency);
  const currency = payments[0]?.receivedCurrency;
  const same = payments.filter((payment) => payment.receivedCurrency === currency);
  const customer = order.metadata?.customer;
  return {
    upstreamStatus: order.status,
    paid: currency ? { amount: plainString(sum(same.map((p) => p.receivedAmount ?? '0'))), currency } : null,
    due:
      order.quote?.toAmount?.amount && order.quote.toAmount.currency
        ? { amount: order.quote.toAmount.amount, currency: order.quote.toAmount.currency }
        : null,
    payments: payments.map((payment) => ({
      amount: payment.receivedAmount as string,
      crypto: payment.receivedCurrency as string,
      network: payment.receivedNetwork ?? null,
      txHash: payment.txHash ?? null,
      confirmedAt: payment.confirmedAt ?? null,
    })),
    ...(customer && (customer.name || customer.email || customer.country)
      ? { customer: { name: customer.name, email: customer.email, country: customer.country } }
      : {}),
  };
}

/** The customer as known after `facts`: what the upstream says wins where it says anything. */
export const mergedCustomer = (
  known: CustomerFacts | undefined,
  told: CustomerFacts | undefined,
): CustomerFacts => ({
  name: told?.name ?? known?.name ?? null,
  email: told?.email ?? known?.email ?? null,
  country: told?.country ?? known?.country ?? null,
});

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
