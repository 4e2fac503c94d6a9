/** How the console writes times, amounts and ids: pure functions, in the browser's locale. */

/** A time as the reader's locale writes it, or a dash. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** `12.50 EUR`, or a dash. */
export function amount(value: string | null | undefined, currency: string | null | undefined): string {
  if (!value) return '—';
  return currency ? `${value} ${currency}` : value;
}

/** A long id or hash shortened for a table cell (the full one is in its title and on the order's page). */
export function short(id: string | null | undefined, keep = 10): string {
  if (!id) return '—';
  return id.length > keep * 2 + 1 ? `${id.slice(0, keep)}…${id.slice(-6)}` : id;
}

/** A `<input type="date">` value as the start (or end) of that day in the reader's time zone, ISO. */
export function dayBound(day: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const date = end ? new Date(y, m - 1, d + 1) : new Date(y, m - 1, d);
  return date.toISOString();
}

/** Why a write control is off for a read credential. */
export const readOnlyReason = (name: string) =>
  `Signed in as “${name}”, a read credential: you can see everything, but changes need a write credential.`;
