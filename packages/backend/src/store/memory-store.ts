/** The in-memory Store: for tests and throwaway runs. Values are cloned so callers cannot mutate what is stored. */
import type { Collection, Store } from './store.ts';

export function createMemoryStore(): Store {
  const collections = new Map<Collection, Map<string, unknown>>();
  const bucket = (collection: Collection) => {
    let map = collections.get(collection);
    if (!map) {
      map = new Map();
      collections.set(collection, map);
    }
    return map;
  };

  return {
    async get<T>(collection: Collection, key: string) {
      const value = bucket(collection).get(key);
      return value === undefined ? undefined : (structuredClone(value) as T);
    },
    async set<T>(collection: Collection, key: string, value: T) {
      bucket(collection).set(key, structuredClone(value));
    },
    // Check and write happen in one synchronous step, so no other caller can interleave.
    async setIfAbsent<T>(collection: Collection, key: string, value: T) {
      const map = bucket(collection);
      if (map.has(key)) return false;
      map.set(key, structuredClone(value));
      return true;
    },
    async delete(collection: Collection, key: string) {
      bucket(collection).delete(key);
    },
    async values<T>(collection: Collection) {
      return [...bucket(collection).values()].map((value) => structuredClone(value) as T);
    },
    async close() {
      collections.clear();
    },
  };
}
