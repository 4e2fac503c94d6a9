/**
 * The merchant's payment policy (PAYMENT_TOLERANCE_PERCENT, LATE_PAYMENT_WINDOW; docs/money.md) and what it decides
 * of an order once the upstream has told its news: an underpayment within the tolerance counts as paid, an
 * underpaid order whose time to pay has passed is expired with what arrived, money reaching an expired order
 * within the late window makes it `paid_late`, and money reaching any other finished order is recorded and
 * flagged, never dropped. Pure, over the ledger's record: the ledger applies it inside its transaction.
 */
import { decimal, plainString } from '../money.ts';
import { balanceOf } from './balance.ts';
import type { OrderRecord, StatusChange } from './order.ts';
import { isFinal } from './status.ts';
import type { UpstreamFacts } from './upstream-facts.ts';

export interface PaymentPolicy {
  /** Percent of the amount due an underpaid order may fall short by and still count as paid (`"0.5"`; 0: none). */
  tolerancePercent: string;
  /** How long after an order expired a payment is still matched to it, as paid late (ms). */
  lateWindowMs: number;
}

export const DAY_MS = 24 * 3_600_000;
export const defaultPaymentPolicy: PaymentPolicy = { tolerancePercent: '0', lateWindowMs: DAY_MS };

/** The shortfall an underpaid order may keep and count as paid, if its shortfall is within the tolerance. */
export function toleratedShortfall(
  record: OrderRecord,
  policy: PaymentPolicy,
): { shortfall: string; tolerancePercent: string } | undefined {
  const percent = decimal(policy.tolerancePercent);
  if (percent.lte(0)) return undefined;
  const { due, shortfall } = balanceOf(record);
  if (!due || !shortfall) return undefined;
  const allowed = decimal(due.amount).times(percent).div(100);
  return decimal(shortfall).lte(allowed)
    ? { shortfall, tolerancePercent: policy.tolerancePercent }
    : undefined;
}

/** Until when the shopper may still pay (the rest the merchant asked for, else the order's expiry); null: no limit. */
export const payByOf = (record: OrderRecord): string | null => record.rest?.payBy ?? record.expiresAt;

/** When the order expired: its `expired` step, else its expiry time. */
const expiredAt = (record: OrderRecord): number | undefined => {
  const step = record.history.findLast((change) => change.status === 'expired');
  const at = step?.at ?? record.expiresAt;
  return at ? Date.parse(at) : undefined;
};

/** Whether a payment reaching the expired `record` at `now` is still matched to it (paid late). */
export function lateWindowOpen(record: OrderRecord, now: number, policy: PaymentPolicy): boolean {
  const at = expiredAt(record);
  return record.status === 'expired' && at !== undefined && now <= at + policy.lateWindowMs;
}

/** Whether the upstream is still worth reading for this order: unfinished, or expired within the late window. */
export const stillWatched = (record: OrderRecord, now: number, policy: PaymentPolicy) =>
  !isFinal(record.status) || lateWindowOpen(record, now, policy);

/** Whether an underpaid order's time to pay has passed (it then becomes expired, with what arrived). */
export function windowClosed(record: OrderRecord, now: number): boolean {
  const payBy = payByOf(record);
  return record.status === 'underpaid' && payBy !== null && now > Date.parse(payBy);
}

/** A crypto code's symbol for comparing (`USDC_BASE` from the list and `USDC` from a webhook are both USDC). */
const symbolOf = (code: string) => code.toUpperCase().split('_')[0] ?? '';

/** What the upstream's facts bring beyond what the record knows: a larger total, or a transaction not seen yet. */
export function newMoney(
  record: OrderRecord,
  facts: UpstreamFacts,
): { amount: string; currency: string; txHashes: string[] } | undefined {
  const known = new Set((record.payments ?? []).map((payment) => payment.txHash).filter(Boolean));
  const txHashes = (facts.payments ?? [])
    .map((payment) => payment.txHash)
    .filter((hash): hash is string => Boolean(hash) && !known.has(hash));
  const paid = facts.paid;
  const before = record.paid;
  const sameCurrency = paid && before && symbolOf(paid.currency) === symbolOf(before.currency);
  const more = paid && (sameCurrency ? decimal(paid.amount).gt(decimal(before.amount)) : !before);
  if (!paid || (!more && txHashes.length === 0)) return undefined;
  const amount = sameCurrency ? plainString(decimal(paid.amount).minus(decimal(before.amount))) : paid.amount;
  return { amount, currency: paid.currency, txHashes };
}

/**
 * Money reaching an order that is finished or paid late (`record`): recorded (the new total and payments);
 * an expired order within the late window becomes `paid_late`, any other gets the payment flagged in
 * `afterFinal` (an `order.payment_after_final` event). Undefined when the facts bring no new money.
 */
export function lateMoney(
  record: OrderRecord,
  facts: UpstreamFacts,
  step: { at: string; now: number; source: StatusChange['source'] },
  policy: PaymentPolicy,
): OrderRecord | undefined {
  const money = newMoney(record, facts);
  if (!money) return undefined;
  const next: OrderRecord = {
    ...record,
    updatedAt: step.at,
    paid: facts.paid ?? record.paid,
    ...(facts.payments?.length ? { payments: facts.payments } : {}),
    ...(facts.due && !record.due ? { due: facts.due } : {}),
  };
  if (lateWindowOpen(record, step.now, policy)) {
    next.status = 'paid_late';
    next.upstreamStatus = facts.upstreamStatus.toUpperCase();
    next.history = [
      ...record.history,
      { status: 'paid_late', upstreamStatus: next.upstreamStatus, at: step.at, source: step.source },
    ];
  } else if (record.status !== 'paid_late') {
    next.afterFinal = [
      ...(record.afterFinal ?? []),
      { ...money, at: step.at, upstreamStatus: facts.upstreamStatus.toUpperCase() },
    ];
  }
  return next;
}

/**
 * The policy's say on an unfinished order the upstream's news just moved (or did not): an underpayment within
 * the tolerance counts as paid; an underpaid order past its time to pay is expired. `next` is changed in place.
 */
export function settleUnderpaid(
  next: OrderRecord,
  step: { at: string; now: number; source: StatusChange['source'] },
  policy: PaymentPolicy,
): boolean {
  if (next.status !== 'underpaid') return false;
  const tolerated = toleratedShortfall(next, policy);
  const status = tolerated ? 'paid' : windowClosed(next, step.now) ? 'expired' : undefined;
  if (!status) return false;
  if (tolerated) next.tolerated = tolerated;
  next.status = status;
  next.updatedAt = step.at;
  next.history = [
    ...next.history,
    { status, upstreamStatus: next.upstreamStatus, at: step.at, source: step.source },
  ];
  return true;
}
