/**
 * The in-memory Store: for tests and throwaway runs, with the same guarantees as the SQL store within one
 * process. Values are cloned so callers cannot mutate what is stored.
 */
import { type Derived, defaultRetentionMs, derive, mayReplaceOrder } from './indexes.ts';
import type { Collection, FindOptions, IndexedFields, OrderPageQuery, Store } from './store.ts';

interface Entry {
  value: unknown;
  derived: Derived;
}

export interface MemoryStoreOptions {
  retentionMs?: number;
  /** Epoch ms (expiry is compared to it). */
  now?: () => number;
}

export function createMemoryStore(options: MemoryStoreOptions = {}): Store {
  const retentionMs = options.retentionMs ?? defaultRetentionMs;
  const now = options.now ?? Date.now;
  const collections = new Map<Collection, Map<string, Entry>>();
  const bucket = (collection: Collection) => {
    let map = collections.get(collection);
    if (!map) {
      map = new Map();
      collections.set(collection, map);
    }
    return map;
  };
  const alive = (entry: Entry | undefined): entry is Entry =>
    entry !== undefined && (entry.derived.expiresAt === null || entry.derived.expiresAt > now());
  const entry = (collection: Collection, value: unknown): Entry => ({
    value: structuredClone(value),
    derived: derive(collection, value, now(), retentionMs),
  });
  const live = (collection: Collection) =>
    [...bucket(collection).values()]
      .filter(alive)
      .sort((a, b) => (a.derived.createdAt ?? '').localeCompare(b.derived.createdAt ?? ''));

  // Every check and change below happens in one synchronous step, so no other caller can interleave.
  const store: Store = {
    async get<T>(collection: Collection, key: string) {
      const found = bucket(collection).get(key);
      return alive(found) ? (structuredClone(found.value) as T) : undefined;
    },
    async set<T>(collection: Collection, key: string, value: T) {
      const next = entry(collection, value);
      const stored = bucket(collection).get(key);
      if (collection === 'orders' && stored && !mayReplaceOrder(stored.derived, next.derived)) return;
      bucket(collection).set(key, next);
    },
    async setIfAbsent<T>(collection: Collection, key: string, value: T) {
      const map = bucket(collection);
      if (alive(map.get(key))) return false;
      map.set(key, entry(collection, value));
      return true;
    },
    async delete(collection: Collection, key: string) {
      bucket(collection).delete(key);
    },
    async values<T>(collection: Collection) {
      return live(collection).map((found) => structuredClone(found.value) as T);
    },
    async find<T>(collection: Collection, where: Partial<IndexedFields>, findOptions: FindOptions = {}) {
      const before = findOptions.createdBefore;
      const matches = live(collection).filter(
        ({ derived }) =>
          (Object.keys(where) as Array<keyof IndexedFields>).every(
            (field) => derived[field] === where[field],
          ) &&
          (before === undefined || (derived.createdAt ?? '') < before),
      );
      if (findOptions.newestFirst) matches.reverse();
      return matches
        .slice(0, findOptions.limit ?? matches.length)
        .map((found) => structuredClone(found.value) as T);
    },
    async pageOrders<T>(query: OrderPageQuery) {
      const { after } = query;
      const at = (found: Entry) => found.derived.createdAt ?? '';
      return [...bucket('orders')]
        .filter(([key, found]) => {
          const { derived } = found;
          const createdAt = at(found);
          return (
            alive(found) &&
            (query.term === undefined || (derived.terms ?? []).includes(query.term)) &&
            (!query.statuses?.length || query.statuses.includes(derived.ledgerStatus ?? '')) &&
            (query.from === undefined || createdAt >= query.from) &&
            (query.to === undefined || createdAt < query.to) &&
            (!after || createdAt < after.createdAt || (createdAt === after.createdAt && key < after.key))
          );
        })
        .sort(([ka, a], [kb, b]) => at(b).localeCompare(at(a)) || kb.localeCompare(ka))
        .slice(0, query.limit)
        .map(([, found]) => structuredClone(found.value) as T);
    },
    // One process, no other writer: callers' keyed locks serialise what must be. A failed transaction puts
    // every collection back as it was.
    async transaction(work) {
      const before = new Map([...collections].map(([name, map]) => [name, new Map(map)]));
      try {
        return await work(store);
      } catch (error) {
        collections.clear();
        for (const [name, map] of before) collections.set(name, map);
        throw error;
      }
    },
    async prune() {
      let removed = 0;
      for (const map of collections.values()) {
        for (const [key, found] of map) {
          if (!alive(found)) {
            map.delete(key);
            removed += 1;
          }
        }
      }
      return removed;
    },
    async close() {
      collections.clear();
    },
  };
  return store;
}
