/** The limit check made before any quote request. */
import type { Method } from '../api/types.ts';

export interface LimitBreach {
  code: 'AMOUNT_TOO_LOW' | 'AMOUNT_TOO_HIGH';
  /** The bound that was crossed, as a decimal string. */
  limit: string;
  currency: string;
}

export type Terms = Method['terms'][number];

/**
 * A method's fixed fee and limits in `fiat` as the backend converted them (limits as totals the shopper types,
 * fees inside), else in EUR as the upstream states them (a backend without `terms`;
 * docs/upstream.md#payment-methods).
 */
export function termsOf(m: Method, fiat: string): Terms {
  const limits = m.limits ?? { currency: 'EUR', min: m.min, max: m.max };
  return (
    m.terms?.find((t) => t.currency === fiat) ?? {
      currency: 'EUR',
      fixedFee: m.fixedFee,
      min: limits.min,
      max: limits.max,
      converted: false,
    }
  );
}

/**
 * Checks a fiat amount against the method's limits in that currency. Converted limits are approximate and an
 * amount in another currency cannot be checked here: both pass (the backend answers AMOUNT_TOO_LOW/HIGH then).
 */
export function checkLimits(method: Method | undefined, fiat: string, amount: string): LimitBreach | null {
  const limits = method && termsOf(method, fiat);
  if (!limits || limits.currency !== fiat || limits.converted) return null;
  const value = Number(amount);
  if (limits.min && value < Number(limits.min))
    return { code: 'AMOUNT_TOO_LOW', limit: limits.min, currency: limits.currency };
  if (limits.max && value > Number(limits.max))
    return { code: 'AMOUNT_TOO_HIGH', limit: limits.max, currency: limits.currency };
  return null;
}

/**
 * A method's limits as the text after its fees: ` · 7,00 €–100.000,00 €` (` · ≈ $7.80–$27,000.00` when
 * converted), or the one bound it has (`≥`, `≤`), or
 * nothing: the backend sends null for a limit the upstream left out (docs/upstream.md#payment-methods), and null
 * must not read as 0.
 */
export function limitRange(
  { min, max, currency, converted }: Pick<Terms, 'min' | 'max' | 'currency' | 'converted'>,
  money: (amount: string, currency: string) => string,
): string {
  const about = converted ? '≈ ' : '';
  if (min !== null && max !== null) return ` · ${about}${money(min, currency)}–${money(max, currency)}`;
  if (min !== null) return ` · ≥ ${about}${money(min, currency)}`;
  return max !== null ? ` · ≤ ${about}${money(max, currency)}` : '';
}
