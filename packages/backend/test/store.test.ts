import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { createFileStore } from '../src/store/file-store.ts';
import { createMemoryStore } from '../src/store/memory-store.ts';
import type { Store } from '../src/store/store.ts';

const kinds: Array<[string, () => Promise<{ store: Store; cleanup: () => Promise<void> }>]> = [
  ['memory', async () => ({ store: createMemoryStore(), cleanup: async () => {} })],
  [
    'file',
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'cc-store-'));
      return { store: await createFileStore(dir), cleanup: () => rm(dir, { recursive: true, force: true }) };
    },
  ],
];

for (const [kind, make] of kinds) {
  describe(`${kind} store`, () => {
    test('get/set/delete/values per collection', async () => {
      const { store, cleanup } = await make();
      await store.set('orders', 'a', { n: 1 });
      await store.set('routes', 'a', { n: 2 });
      assert.deepEqual(await store.get('orders', 'a'), { n: 1 });
      assert.deepEqual(await store.get('routes', 'a'), { n: 2 });
      assert.equal(await store.get('orders', 'missing'), undefined);
      assert.deepEqual(await store.values('orders'), [{ n: 1 }]);
      await store.delete('orders', 'a');
      assert.equal(await store.get('orders', 'a'), undefined);
      await store.close();
      await cleanup();
    });

    test('values are copies: mutating what get returned changes nothing stored', async () => {
      const { store, cleanup } = await make();
      await store.set('orders', 'a', { list: [1] });
      const got = await store.get<{ list: number[] }>('orders', 'a');
      got?.list.push(2);
      assert.deepEqual(await store.get('orders', 'a'), { list: [1] });
      await store.close();
      await cleanup();
    });

    test('setIfAbsent: of many concurrent writers exactly one wins', async () => {
      const { store, cleanup } = await make();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.setIfAbsent('idempotency', 'k', { i })),
      );
      assert.equal(results.filter(Boolean).length, 1);
      const winner = results.indexOf(true);
      assert.deepEqual(await store.get('idempotency', 'k'), { i: winner });
      await store.close();
      await cleanup();
    });

    test('a key named __proto__ is only data', async () => {
      const { store, cleanup } = await make();
      assert.equal(await store.setIfAbsent('webhooks', '__proto__', { polluted: true }), true);
      assert.deepEqual(await store.get('webhooks', '__proto__'), { polluted: true });
      assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
      await store.close();
      await cleanup();
    });
  });
}

test('file store: a new store over the same directory sees everything acknowledged', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'cc-store-'));
  const first = await createFileStore(dir);
  await Promise.all(Array.from({ length: 50 }, (_, i) => first.set('orders', `o${i}`, { i })));
  await first.setIfAbsent('idempotency', 'key-1', { state: 'done' });
  await first.delete('orders', 'o0');
  await first.close();

  const second = await createFileStore(dir);
  assert.equal((await second.values('orders')).length, 49);
  assert.deepEqual(await second.get('idempotency', 'key-1'), { state: 'done' });
  assert.equal(await second.setIfAbsent('idempotency', 'key-1', { state: 'other' }), false);
  // What is on disk is plain JSON a person can read.
  const raw = JSON.parse(await readFile(path.join(dir, 'orders.json'), 'utf8')) as Record<string, unknown>;
  assert.deepEqual(raw['o7'], { i: 7 });
  await second.close();
  await rm(dir, { recursive: true, force: true });
});
