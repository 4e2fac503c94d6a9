/** Money and date formatting for the demo pages, in the browser's locale. */

export function formatMoney(amount: string | number | undefined, currency: string | undefined): string {
  if (amount === undefined || amount === null || amount === '') return '';
  const value = Number(amount);
  if (!Number.isFinite(value)) return `${amount} ${currency ?? ''}`.trim();
  if (!currency || !/^[A-Z]{3}$/.test(currency)) {
    return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 8 }).format(value)} ${currency ?? ''}`.trim();
  }
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(value);
  } catch {
    return `${value} ${currency}`;
  }
}

/** Crypto amounts keep their precision; the code may carry a network suffix (`USDC_BASE`). */
export function formatCrypto(amount: string | undefined, currency: string | undefined): string {
  if (!amount) return '';
  return `${amount} ${currency ?? ''}`.trim();
}

export function formatDate(value: string | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
