/**
 * The on-disk Store (the default): one JSON file per collection under DATA_DIR, kept by lowdb, whose steno
 * writer writes to a temporary file and renames it, so a crash mid-write never leaves a torn file.
 *
 * Each collection is read into memory once; reads are served from memory and every change is written through
 * before the call resolves, so a restart loses nothing that was acknowledged. Checks and changes happen
 * synchronously on the in-memory copy (Node runs one callback at a time), which makes `setIfAbsent` atomic
 * within the process; the writes themselves are chained per collection so they land in order.
 *
 * One process per DATA_DIR. For several instances, implement `Store` over a shared server instead; with Redis:
 *   get → GET cc:<collection>:<key> (JSON)      set → SET cc:<collection>:<key> <json>
 *   setIfAbsent → SET … NX (true when it answered OK)    delete → DEL
 *   values → SCAN MATCH cc:<collection>:* (or keep a HASH per collection and use HVALS / HSETNX instead)
 *   close → QUIT.  Webhook dedupe keys could also carry EX (the upstream retries for 24 h at most).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import type { Collection, Store } from './store.ts';

type Data = Record<string, unknown>;

const collectionNames: readonly Collection[] = [
  'idempotency',
  'orders',
  'routes',
  'webhooks',
  'ramp-orders',
  'outbox',
];

export async function createFileStore(dataDir: string): Promise<Store> {
  await mkdir(dataDir, { recursive: true });
  const files = new Map<Collection, Low<Data>>();
  // The live copy is a Map, not the parsed object, so a key like `__proto__` (keys come from clients) is
  // only ever data; it is turned into a plain object with Object.fromEntries just before each write.
  const maps = new Map<Collection, Map<string, unknown>>();
  // Per-collection tail of the write chain: each write starts after the previous one settled.
  const tails = new Map<Collection, Promise<void>>();
  for (const name of collectionNames) {
    const db = new Low<Data>(new JSONFile<Data>(path.join(dataDir, `${name}.json`)), {});
    await db.read();
    const data: unknown = db.data;
    // A file edited by hand into `null` or an array must not poison the collection.
    const entries =
      data !== null && typeof data === 'object' && !Array.isArray(data) ? Object.entries(data) : [];
    files.set(name, db);
    maps.set(name, new Map(entries));
    tails.set(name, Promise.resolve());
  }
  let closed = false;

  const map = (collection: Collection) => {
    if (closed) throw new Error('store is closed');
    const found = maps.get(collection);
    if (!found) throw new Error(`unknown collection ${collection}`);
    return found;
  };
  const persist = (collection: Collection) => {
    const write = async () => {
      const db = files.get(collection)!;
      db.data = Object.fromEntries(map(collection));
      await db.write();
    };
    const next = (tails.get(collection) ?? Promise.resolve()).then(write);
    // A failed write must not block later ones; its own caller still sees the failure.
    tails.set(
      collection,
      next.catch(() => undefined),
    );
    return next;
  };

  return {
    async get<T>(collection: Collection, key: string) {
      const value = map(collection).get(key);
      return value === undefined ? undefined : (structuredClone(value) as T);
    },
    async set<T>(collection: Collection, key: string, value: T) {
      map(collection).set(key, structuredClone(value));
      await persist(collection);
    },
    async setIfAbsent<T>(collection: Collection, key: string, value: T) {
      const entries = map(collection);
      if (entries.has(key)) return false;
      entries.set(key, structuredClone(value));
      await persist(collection);
      return true;
    },
    async delete(collection: Collection, key: string) {
      if (!map(collection).delete(key)) return;
      await persist(collection);
    },
    async values<T>(collection: Collection) {
      return [...map(collection).values()].map((value) => structuredClone(value) as T);
    },
    async close() {
      if (closed) return;
      await Promise.all([...tails.values()]);
      closed = true;
    },
  };
}
