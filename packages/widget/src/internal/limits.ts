/** The limit check made before any quote request. */
import type { Method } from '../api/types.ts';

export interface LimitBreach {
  code: 'AMOUNT_TOO_LOW' | 'AMOUNT_TOO_HIGH';
  /** The bound that was crossed, as a decimal string. */
  limit: string;
  currency: string;
}

/** A method's limits; an upstream that sends only `min`/`max` states them in EUR. */
export const limitsOf = (m: Method): Method['limits'] =>
  m.limits ?? { currency: 'EUR', min: m.min, max: m.max };

/**
 * Checks a fiat amount against the method's limits. Limits are stated in one currency (EUR); an amount in
 * another currency cannot be checked here and passes (the backend answers AMOUNT_TOO_LOW/HIGH then).
 */
export function checkLimits(method: Method | undefined, fiat: string, amount: string): LimitBreach | null {
  const limits = method && limitsOf(method);
  if (!limits || limits.currency !== fiat) return null;
  const value = Number(amount);
  if (limits.min && value < Number(limits.min))
    return { code: 'AMOUNT_TOO_LOW', limit: limits.min, currency: limits.currency };
  if (limits.max && value > Number(limits.max))
    return { code: 'AMOUNT_TOO_HIGH', limit: limits.max, currency: limits.currency };
  return null;
}

/**
 * A method's limits as the text after its fees: ` · 7,00 €–100.000,00 €`, or the one bound it has (`≥`, `≤`), or
 * nothing: the backend sends null for a limit the upstream left out, and null must not read as 0.
 */
export function limitRange(
  { min, max, currency }: Method['limits'],
  money: (amount: string, currency: string) => string,
): string {
  if (min !== null && max !== null) return ` · ${money(min, currency)}–${money(max, currency)}`;
  if (min !== null) return ` · ≥ ${money(min, currency)}`;
  return max !== null ? ` · ≤ ${money(max, currency)}` : '';
}
