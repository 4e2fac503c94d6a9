/**
 * The SQL side of the admin's order search (order-search.ts): the terms written beside an order, and a keyset
 * page of the ledger, newest first, on SQLite and PostgreSQL alike (indexes `orders_created_key`,
 * `orders_status_created_key` and `order_terms`' primary key serve it; `npm run bench -- admin-orders` measures it).
 */
import type { Kysely } from 'kysely';
import { orderTerms } from './order-search.ts';
import type { OrderPageQuery } from './store.ts';

// biome-ignore lint/suspicious/noExplicitAny: the same query runs in and outside a transaction.
type AnyDb = Kysely<any>;

/** Adds the order's terms (terms only ever grow: an e-mail once searchable stays so). */
export async function writeOrderTerms(q: AnyDb, key: string, record: unknown): Promise<void> {
  const terms = orderTerms(record);
  if (!terms.length) return;
  await q
    .insertInto('order_terms')
    .values(terms.map((term) => ({ term, order_key: key })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function pageOrdersSql(q: AnyDb, query: OrderPageQuery, now: number): Promise<string[]> {
  let select = q
    .selectFrom('orders')
    .select('value')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  if (query.term !== undefined)
    select = select.where(
      'key',
      'in',
      q.selectFrom('order_terms').select('order_key').where('term', '=', query.term),
    );
  if (query.statuses?.length) select = select.where('ledger_status', 'in', [...query.statuses]);
  if (query.from !== undefined) select = select.where('created_at', '>=', query.from);
  if (query.to !== undefined) select = select.where('created_at', '<', query.to);
  const { after } = query;
  if (after)
    select = select.where((eb) =>
      eb(eb.refTuple('created_at', 'key'), '<', eb.tuple(after.createdAt, after.key)),
    );
  const rows = await select.orderBy('created_at', 'desc').orderBy('key', 'desc').limit(query.limit).execute();
  return rows.map((row) => row.value as string);
}
