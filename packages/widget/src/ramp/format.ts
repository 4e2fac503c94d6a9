/**
 * The ramp's number helpers (buy, sell): crypto amounts, fees, names and freshness formatted with Intl in a given
 * (valid) locale, and parsing what a shopper types. Pure functions; what every mode needs is in locale.ts.
 */
import { type Decimal, decimalSeparator, intl } from '../internal/locale.ts';
import { languageFor } from '../internal/messages.ts';

/**
 * `amount` (as Intl writes it in `locale`) isolated left to right where it would read right to left: amounts joined
 * in one line (`A → B`, a method's fees and limits) keep its order. The language's code does it
 * (../languages/languages.ts): an English page's amounts are Latin, left as they are.
 */
export const isolated = (amount: string, locale: string): string =>
  languageFor(locale)?.isolated(amount) ?? amount;

/**
 * A crypto amount for reading, with its ticker: 4 significant digits, or the cents when that is more
 * (`64.884077` → `64.88 USDC`, `0.000123456789` → `0.0001235 BTC`, `12345.678` → `12,345.68 USDC`). Rounding
 * only drops digits: never more precision than the amount has (`50` → `50 USDC`). The fields keep every digit.
 * Isolated (`isolated`): it is always read beside another amount.
 */
export const formatCrypto = (amount: string, symbol: string, locale: string): string =>
  isolated(
    `${intl(
      `~${locale}`,
      () =>
        new Intl.NumberFormat(locale, {
          maximumSignificantDigits: 4,
          maximumFractionDigits: 2,
          roundingPriority: 'morePrecision',
        }),
    ).format(amount as Decimal)} ${symbol}`,
    locale,
  );

/**
 * A fee percentage from the backend (`'1.75'`) in the locale's way: `1.75%`, `1,75 %`; isolated (`isolated`), as it
 * is read in a line of amounts.
 */
export const formatPercent = (percent: string, locale: string): string =>
  isolated(
    intl(
      `%${locale}`,
      () => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 4 }),
    ).format(Number(percent) / 100),
    locale,
  );

/**
 * A backend decimal shown in an input in the locale's way, without grouping (`0.5` → `0,5` in `fr`). A whole
 * number needs no Intl at all: the first Intl formatter of a page readies the browser's data, which costs (see
 * define.ts), and the first quote request must not wait for it.
 */
export const toInputValue = (amount: string, locale: string): string =>
  amount.includes('.') ? amount.replace('.', decimalSeparator(locale)) : amount;

/**
 * What a shopper typed → a plain decimal string (`"1234.5"`), or null when it is not a positive number.
 * The decimal mark is the locale's (`12,50` is 12.5 in `de`); the other mark groups thousands (`1,000` in `en`,
 * `1.000` in `de`), and is a decimal mark only where it cannot be misread (`12,50` in `en`, `12.5` in `de`). Exponents are read (`1e12`), so a huge
 * amount is told its maximum rather than called invalid. Arabic numerals and marks read as Latin ones.
 */
export function parseAmount(input: string, locale: string): string | null {
  // Arabic numerals and marks (an Arabic keyboard's, and an Arabic field's: `1234٫5`) as Latin ones: the language's
  // code (../languages/languages.ts) knows them, an English page has none.
  let s = (languageFor(locale)?.latin(input) ?? input).replace(/[\s\u00a0\u202f'’_]/g, '');
  const decimal = decimalSeparator(locale);
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) {
    const mark = lastDot > lastComma ? '.' : ',';
    if (/^[.,]$/.test(decimal) && mark !== decimal) return null;
    s = s
      .split(mark === '.' ? ',' : '.')
      .join('')
      .replace(',', '.');
  } else if (lastDot >= 0 || lastComma >= 0) {
    const mark = lastDot >= 0 ? '.' : ',';
    const [head = '', ...groups] = s.split(mark);
    // "1,000" where the locale writes "1.5" (or "1.000" where it writes "1,5") is a thousands group.
    const grouping =
      /^[1-9]/.test(head) && groups.every((g) => g.length === 3) && (groups.length > 1 || mark !== decimal);
    if (grouping) s = head + groups.join('');
    // The other locale's decimal mark where it cannot be misread (not three digits after it: `12,50` on an English
    // page, `12.5` on a German one) is a decimal mark too.
    else if (groups.length === 1 && (mark === decimal || !/^[.,]$/.test(decimal) || groups[0]?.length !== 3))
      s = `${head}.${groups[0]}`;
    else return null;
  }
  if (/^(\d+\.?\d*|\.\d+)e[+-]?\d+$/i.test(s)) {
    const n = Number(s);
    return n > 0 && Number.isFinite(n)
      ? n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 })
      : null;
  }
  if (!/^(\d+\.?\d*|\.\d+)$/.test(s)) return null;
  s = s.replace(/\.$/, '').replace(/^0+(?=\d)/, '');
  if (s.startsWith('.')) s = `0${s}`;
  return Number(s) > 0 ? s : null;
}

/**
 * "5 seconds ago" in the locale, for how fresh a quote is. The long style: the narrow one writes the past as a
 * negative number in some languages ("-5 s" in French, Norwegian, Romanian, Swedish) and clips words in others
 * (Hungarian "5 m.perce"); test/browser/quote-age.test.ts reads it in every language and engine.
 */
export const formatAgo = (seconds: number, locale: string): string =>
  intl(`@${locale}`, () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'long' })).format(
    -Math.max(0, Math.round(seconds)),
    'second',
  );

/**
 * Countries or currencies named in the locale (`DE` → `Alemania` in `es`), sorted as the locale sorts; the
 * backend's English names where Intl has none.
 */
export function localNames<T extends { code: string; name: string }>(
  items: T[],
  locale: string,
  type: 'region' | 'currency',
): { code: string; name: string }[] {
  try {
    const names = intl(`${type} ${locale}`, () => new Intl.DisplayNames(locale, { type, fallback: 'none' }));
    // localeCompare with a locale is Intl.Collator's compare (V8 keeps the collator: no cost per call).
    return items
      .map(({ code, name }) => ({ code, name: names.of(code) || name }))
      .sort((a, b) => a.name.localeCompare(b.name, locale));
  } catch {
    // A code Intl cannot read: the backend's names, as they come.
    return items;
  }
}
