/**
 * What the admin's order search matches on: each order's search terms (our id, the upstream's id with and
 * without its `SP-` prefix, the payer's e-mail, the merchant's reference, each payment's transaction hash), kept
 * lower-cased in the `order_terms` table beside the order (written with it), and the opaque keyset cursor of a page.
 */
import { z } from 'zod';

/** The record fields the terms come from (OrderRecord's, loosely: older records may lack some). */
interface Searchable {
  id?: unknown;
  upstreamId?: unknown;
  customer?: { email?: unknown } | null;
  product?: { reference?: unknown } | null;
  payments?: Array<{ txHash?: unknown }> | null;
}

const term = (value: unknown) =>
  typeof value === 'string' && value.trim() ? value.trim().toLowerCase() : undefined;

/** An order's search terms, lower-cased, each once. */
export function orderTerms(record: unknown): string[] {
  const order = (record ?? {}) as Searchable;
  const upstreamId = term(order.upstreamId);
  const terms = [
    term(order.id),
    upstreamId,
    upstreamId?.replace(/^sp-/, ''),
    term(order.customer?.email),
    term(order.product?.reference),
    ...(order.payments ?? []).map((payment) => term(payment.txHash)),
  ];
  return [...new Set(terms.filter((found): found is string => found !== undefined))];
}

/** How a query's `q` is matched: the same lower-casing as the terms. */
export const searchTerm = (q: string) => q.trim().toLowerCase();

const cursorSchema = z.tuple([z.string(), z.string()]);

/** The opaque cursor after an order: base64url of `[createdAt, key]`. */
export const orderCursor = (createdAt: string, key: string) =>
  Buffer.from(JSON.stringify([createdAt, key])).toString('base64url');

/** The position a cursor names, or undefined when it is not one of ours. */
export function readOrderCursor(cursor: string): { createdAt: string; key: string } | undefined {
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return parsed.success ? { createdAt: parsed.data[0], key: parsed.data[1] } : undefined;
  } catch {
    return undefined;
  }
}
