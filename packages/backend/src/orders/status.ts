/**
 * Our order statuses, how the upstream's map onto them, and the one rule every writer obeys: a status never
 * moves backwards (an underpaid order can still become paid; a final one never changes, except that an expired
 * order a payment reaches within the late window becomes `paid_late`: orders/payment-policy.ts).
 */
export const orderStatuses = [
  'pending',
  'awaiting_payment',
  'underpaid',
  'paid',
  'overpaid',
  'expired',
  'failed',
  // A payment matched within the late window after expiry: the merchant accepts it (→ paid) or refunds it.
  'paid_late',
  // The upstream cancelled the order (CANCELLED): final, and no failure of the payer's.
  'cancelled',
] as const;
export type OrderStatus = (typeof orderStatuses)[number];

const finals: ReadonlySet<OrderStatus> = new Set(['paid', 'overpaid', 'expired', 'failed', 'cancelled']);
export const isFinal = (status: OrderStatus) => finals.has(status);

/** Upstream statuses in the order they can happen; the finals share the top rank. */
const upstream: Record<string, { rank: number; status: OrderStatus }> = {
  PENDING_USER_CREATION: { rank: 0, status: 'pending' },
  PENDING_CURRENCY_SELECTION: { rank: 1, status: 'pending' },
  AWAITING_PAYMENT: { rank: 2, status: 'awaiting_payment' },
  PAYMENT_CONFIRMED_UNDERPAID: { rank: 3, status: 'underpaid' },
  PAYMENT_CONFIRMED_ACCURATE: { rank: 4, status: 'paid' },
  COMPLETED: { rank: 4, status: 'paid' },
  PAYMENT_CONFIRMED_OVERPAID: { rank: 4, status: 'overpaid' },
  EXPIRED: { rank: 4, status: 'expired' },
  CANCELLED: { rank: 4, status: 'cancelled' },
};

/** Our status for an upstream one; undefined for a status we do not know (it is then ignored). */
export function mapUpstreamStatus(status: string): OrderStatus | undefined {
  return upstream[status.toUpperCase()]?.status;
}

/** The rank of an upstream status (-1 when unknown): the stores refuse a write that would lower it. */
export const upstreamRank = (status: string) => upstream[status.toUpperCase()]?.rank ?? -1;

/**
 * Whether moving from `current` (ours + the upstream's) to the upstream status `next` is progress.
 * Ranks compare upstream statuses, so PENDING_USER_CREATION → PENDING_CURRENCY_SELECTION is recorded
 * even though both are `pending` for the widget.
 */
export function isProgress(current: { status: OrderStatus; upstreamStatus: string }, next: string): boolean {
  if (isFinal(current.status)) return false;
  const to = upstream[next.toUpperCase()];
  if (!to) return false;
  const from = upstream[current.upstreamStatus.toUpperCase()]?.rank ?? -1;
  return to.rank > from;
}
