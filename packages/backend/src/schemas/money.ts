/** Money as our API writes it: decimal strings, never floats, never exponent notation. */
import { z } from 'zod';

/** Currencies without a minor unit (amounts are whole numbers). */
const zeroDecimal: ReadonlySet<string> = new Set(['JPY', 'VND', 'KRW', 'CLP']);

export const fiatDigits = (currency: string) => (zeroDecimal.has(currency.toUpperCase()) ? 0 : 2);

/** A fiat amount with its currency's decimals: `103.1` EUR → `"103.10"`. */
export const fiatString = (amount: number, currency: string) => amount.toFixed(fiatDigits(currency));

/** A crypto amount or a rate with up to `maxDigits` decimals and no trailing zeros: `0.03120000` → `"0.0312"`. */
export function decimalString(amount: number, maxDigits = 8): string {
  const fixed = amount.toFixed(maxDigits);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') || '0' : fixed;
}

/** A positive decimal from the client, as a string (`"100.00"`) or a JSON number; out: a number. */
export const positiveDecimal = z
  .union([z.string(), z.number()])
  .transform((value) => String(value).trim())
  .pipe(z.string().regex(/^\d{1,15}(\.\d{1,18})?$/, 'must be a positive decimal like "100.00"'))
  .transform(Number)
  .refine((value) => value > 0 && Number.isFinite(value), 'must be a positive number');

/**
 * A positive amount kept as the decimal string it was given (`"49.00"`; a JSON number is written as a string):
 * catalog prices, checkout-token prices, payment-link amounts. Never turned into a float.
 */
export const priceAmount = z
  .union([z.string(), z.number()])
  .transform((value) => String(value).trim())
  .pipe(
    z.string().regex(/^(?=.*[1-9])\d{1,12}(\.\d{1,8})?$/, 'must be a positive decimal amount like "49.00"'),
  );

export const countryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'must be a 2-letter country code')
  .transform((value) => value.toUpperCase());

export const currencyCode = z
  .string()
  .regex(/^[A-Za-z]{3}$/, 'must be a 3-letter currency code')
  .transform((value) => value.toUpperCase());

export const cryptoCode = z
  .string()
  .regex(/^[A-Za-z0-9_]{2,32}$/, 'must be a crypto code like USDC_BASE')
  .transform((value) => value.toUpperCase());

export const methodId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a method id like creditcard');
