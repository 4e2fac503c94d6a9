/**
 * Money in the backend, in one place: amounts travel as decimal strings, arithmetic is big.js (exact decimal,
 * never a float), and every amount is rounded to its currency's digits from the one table below.
 *
 * A number appears only where the upstream sends one (JSON numbers in its answers, read here through `decimal`,
 * which takes the number's shortest decimal form, i.e. exactly what its JSON said) or demands one (`toNumber`,
 * used by the upstream clients as they build a request body).
 */
import Big from 'big.js';
import { z } from 'zod';

/** A Big constructor of our own (settings never shared with another big.js user in the process). */
const Dec = Big();
Dec.DP = 20;
Dec.RM = Big.roundHalfUp;
// Never throw on a JS number: the upstream's JSON numbers are read through their shortest decimal form.
Dec.strict = false;

export type Decimal = Big;

/**
 * Digits after the point per currency. Fiat follows ISO 4217 (2 unless listed); a crypto by its symbol before any
 * network suffix (`USDC_BASE` → USDC), 8 unless listed: what the shopper is shown and what a quote is rounded to.
 */
const fiatDigitsTable: Readonly<Record<string, number>> = {
  JPY: 0,
  KRW: 0,
  VND: 0,
  CLP: 0,
  ISK: 0,
  UGX: 0,
  PYG: 0,
  XOF: 0,
  XAF: 0,
  BHD: 3,
  KWD: 3,
  OMR: 3,
  JOD: 3,
  TND: 3,
};
const cryptoDigitsTable: Readonly<Record<string, number>> = {
  BTC: 8,
  BCH: 8,
  LTC: 8,
  DOGE: 8,
  ETH: 8,
  DAI: 8,
  USDC: 6,
  USDT: 6,
  EURC: 6,
  PYUSD: 6,
  XRP: 6,
  TRX: 6,
  SOL: 9,
  TON: 9,
};
const DEFAULT_FIAT_DIGITS = 2;
const DEFAULT_CRYPTO_DIGITS = 8;

export type CurrencyKind = 'fiat' | 'crypto';

/**
 * How `currency` is counted when the caller does not say: a listed crypto symbol, or any code that is not 3
 * letters, is a crypto. Callers that know (a quote's crypto side) pass `kind`, so an unlisted 3-letter crypto is
 * never taken for a fiat.
 */
export function kindOf(currency: string): CurrencyKind {
  const symbol = currency.toUpperCase().split('_')[0] ?? '';
  return symbol in cryptoDigitsTable || !/^[A-Z]{3}$/.test(currency.toUpperCase()) ? 'crypto' : 'fiat';
}

/** JPY 0, EUR 2, BTC 8, USDC 6: the digits an amount in `currency` is rounded to. */
export function digitsOf(currency: string, kind: CurrencyKind = kindOf(currency)): number {
  const code = currency.toUpperCase();
  if (kind === 'fiat') return fiatDigitsTable[code] ?? DEFAULT_FIAT_DIGITS;
  return cryptoDigitsTable[code.split('_')[0] ?? ''] ?? DEFAULT_CRYPTO_DIGITS;
}

/** A decimal from a decimal string or an upstream JSON number; throws on anything else (NaN, `"1e5x"`). */
export function decimal(value: string | number | Decimal): Decimal {
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new TypeError(`not a finite number: ${value}`);
  return new Dec(typeof value === 'string' ? value.trim() : value);
}

/** A decimal, or undefined when the value is missing or not a decimal. */
export function decimalOrUndefined(value: string | number | null | undefined): Decimal | undefined {
  if (value === null || value === undefined) return undefined;
  try {
    return decimal(value);
  } catch {
    return undefined;
  }
}

const modes = { 'half-up': Big.roundHalfUp, down: Big.roundDown, up: Big.roundUp } as const;
export type Rounding = keyof typeof modes;

/**
 * How to round: half up unless told (`down` for a most, `up` for a least); `maxDigits` caps the table's digits;
 * `kind` when the caller knows whether the currency is a fiat or a crypto.
 */
export interface RoundingOptions {
  mode?: Rounding;
  maxDigits?: number;
  kind?: CurrencyKind;
}

/** `value` rounded to `currency`'s digits: the one place amounts are rounded. */
export function round(
  value: string | number | Decimal,
  currency: string,
  { mode = 'half-up', maxDigits = Number.POSITIVE_INFINITY, kind }: RoundingOptions = {},
): Decimal {
  return decimal(value).round(Math.min(digitsOf(currency, kind), maxDigits), modes[mode]);
}

/**
 * An amount as the API writes it: rounded to the currency's digits; fiat with all of them (`"103.10"`,
 * `"500"` JPY), crypto without trailing zeros (`"0.0312"`). Never exponent notation.
 */
export function amountString(
  value: string | number | Decimal,
  currency: string,
  options: RoundingOptions = {},
): string {
  const rounded = round(value, currency, options);
  const kind = options.kind ?? kindOf(currency);
  if (kind === 'crypto') return plainString(rounded);
  return rounded.toFixed(Math.min(digitsOf(currency, kind), options.maxDigits ?? Number.POSITIVE_INFINITY));
}

/** A rate or a ratio (not an amount of a currency) with up to `maxDigits` decimals: `0.03120000` → `"0.0312"`. */
export function ratioString(value: string | number | Decimal, maxDigits: number): string {
  return plainString(decimal(value).round(maxDigits, Big.roundHalfUp));
}

/** Plain decimal notation without trailing zeros, whatever the exponent (`2.5e-7` → `"0.00000025"`). */
export function plainString(value: Decimal): string {
  const text = value.toFixed();
  const out = text.includes('.') ? text.replace(/\.?0+$/, '') : text;
  return out === '-0' ? '0' : out;
}

/**
 * Exactly what was given, in plain notation: a decimal string as it came (`"49.00"`), a number or an exponent
 * written out (`2.5e-7` → `"0.00000025"`); undefined when it is not a decimal at all.
 */
export function exactString(value: string | number): string | undefined {
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return value.trim();
  const parsed = decimalOrUndefined(value);
  return parsed ? parsed.toFixed() : undefined;
}

/** Sums decimal strings exactly; unreadable parts count as zero. */
export function sum(values: ReadonlyArray<string | number | Decimal>): Decimal {
  return values.reduce<Decimal>(
    (total, value) => total.plus(typeof value === 'object' ? value : (decimalOrUndefined(value) ?? 0)),
    new Dec(0),
  );
}

/**
 * Why `amount` cannot be charged in `currency` as typed, or undefined when it can: more decimals than the
 * currency has (`"12.505"` EUR, `"500.5"` JPY) are refused, never rounded (a rounded-up amount would charge more
 * than typed). Trailing zeros are not more decimals (`"12.500"` EUR is 12.50).
 */
export function excessDecimals(
  amount: string,
  currency: string,
  kind: CurrencyKind = kindOf(currency),
): string | undefined {
  const digits = digitsOf(currency, kind);
  const value = decimalOrUndefined(amount);
  if (!value || value.round(digits, Big.roundDown).eq(value)) return undefined;
  const code = currency.toUpperCase();
  return digits === 0
    ? `${code} has no decimals: ${amount} cannot be charged exactly`
    : `${code} has ${digits} decimal${digits === 1 ? '' : 's'}: ${amount} cannot be charged exactly`;
}

/** In a zod `superRefine`: refuses (at `path`) an amount with more decimals than its currency (see `excessDecimals`). */
export function refuseExcessDecimals(
  ctx: z.RefinementCtx,
  path: string,
  amount: string | undefined,
  currency: string | undefined,
  kind?: CurrencyKind,
): void {
  if (amount === undefined || !currency) return;
  const issue = excessDecimals(amount, currency, kind);
  if (issue) ctx.addIssue({ code: 'custom', path: [path], message: issue });
}

/** The number an upstream request body demands, from our decimal string (no arithmetic happens on it). */
export const toNumber = (value: string | Decimal): number => decimal(value).toNumber();

const decimalInput = z.union([z.string(), z.number()]).transform((value) => String(value).trim());

/**
 * A positive decimal from the client, as a string (`"100.00"`) or a JSON number; out: the decimal string as given
 * (never turned into a float).
 */
export const positiveDecimal = decimalInput
  .pipe(z.string().regex(/^\d{1,15}(\.\d{1,18})?$/, 'must be a positive decimal like "100.00"'))
  .refine((value) => /[1-9]/.test(value), 'must be a positive number');

/**
 * A positive amount kept as the decimal string it was given (`"49.00"`; a JSON number is written as a string):
 * catalog prices, checkout-token prices, payment-link amounts.
 */
export const priceAmount = decimalInput.pipe(
  z.string().regex(/^(?=.*[1-9])\d{1,12}(\.\d{1,8})?$/, 'must be a positive decimal amount like "49.00"'),
);

/**
 * An amount the upstream sends as a JSON number or a numeric string, kept exactly as a decimal string; one that is
 * not a decimal reads as missing (lenient: the rest of the answer still counts).
 */
export const upstreamDecimal = z.union([z.string(), z.number()]).transform(exactString);
