/**
 * What an order's events say of its money beside what arrived: what was due in the crypto paid, the rate that
 * made it (fiat per unit of that crypto), and the shortfall or the excess. Pure, from the ledger's record.
 */
import { decimal, decimalOrUndefined, plainString, ratioString } from '../money.ts';

/** An amount of a currency, as the ledger keeps one. */
interface Money {
  amount: string;
  currency: string;
}

/** What the balance reads of an order's record (order.ts `OrderRecord`, which its view builds on this file). */
export interface BalanceInput {
  due?: Money | null | undefined;
  paid: Money | null;
  product: { price: string };
}

export interface OrderBalance {
  /** What is due in the crypto the payer picked (the upstream's quote); null where the upstream did not say. */
  due: { amount: string; currency: string } | null;
  /** The order's price per unit of that crypto (`price ÷ due`), e.g. `"0.9998"` EUR per USDC. */
  rate: string | null;
  /** What is still missing, in that crypto (null when nothing is, or it cannot be told). */
  shortfall: string | null;
  /** What arrived beyond what was due, in that crypto (null when nothing did, or it cannot be told). */
  excess: string | null;
}

/** A crypto code's symbol for comparing (`USDC_BASE` and `usdc` are both USDC). */
export const symbolOf = (code: string) => code.toUpperCase().split('_')[0] ?? '';

export function balanceOf(record: BalanceInput): OrderBalance {
  const due = record.due ?? null;
  const dueAmount = decimalOrUndefined(due?.amount);
  const price = decimalOrUndefined(record.product.price);
  const rate = dueAmount && price && dueAmount.gt(0) ? ratioString(price.div(dueAmount), 8) : null;
  if (!due || !dueAmount) return { due, rate, shortfall: null, excess: null };
  const paid = record.paid;
  if (paid && symbolOf(paid.currency) !== symbolOf(due.currency))
    return { due, rate, shortfall: null, excess: null };
  const difference = dueAmount.minus(decimal(paid?.amount ?? '0'));
  return {
    due,
    rate,
    shortfall: difference.gt(0) ? plainString(difference) : null,
    excess: difference.lt(0) ? plainString(difference.abs()) : null,
  };
}
