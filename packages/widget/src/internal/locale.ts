/** What every mode needs of the locale, pure: a valid tag, its decimal mark, and money written in it. */

export type Decimal = `${number}`;

/**
 * `locale` if Intl accepts it as a language tag, else `fallback`: formatting never throws on a typo, nor on what a
 * browser reports (`"C"` under `LANG=C.UTF-8` in WebKitGTK, `""`, nothing at all under a server-side DOM shim).
 */
export function validLocale(locale?: string, fallback = 'en'): string {
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? fallback;
  } catch {
    return fallback;
  }
}

const made = new Map<string, unknown>();

/**
 * The Intl object `key` names (its kind, locale and options), made once a page: making a formatter costs (the
 * updates `npm run bench -- ttfq` times), a first quote shows some eighty amounts, and the quote's age re-renders
 * it every second.
 */
export function intl<T>(key: string, make: () => T): T {
  if (!made.has(key)) made.set(key, make());
  return made.get(key) as T;
}

/** A fiat amount, e.g. `formatMoney('49.9', 'EUR', 'de')` → `49,90 €`. Unknown codes fall back to `49.90 XYZ`. */
export function formatMoney(amount: string, currency: string, locale: string): string {
  try {
    return intl(
      `$${locale} ${currency}`,
      () => new Intl.NumberFormat(locale, { style: 'currency', currency }),
    ).format(amount as Decimal);
  } catch {
    return `${formatNumber(amount, locale, 2)} ${currency}`;
  }
}

const formatNumber = (amount: string, locale: string, maxDigits: number): string =>
  new Intl.NumberFormat(locale, { maximumFractionDigits: maxDigits }).format(amount as Decimal);

/** The locale's decimal separator (`,` in `de`). */
export const decimalSeparator = (locale: string): string =>
  new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
