// A status change that lands while an SSE stream is still reading the order's first state must reach that
// stream (the ledger tells each change once; a stream that subscribed after it would wait forever).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createMemoryStore } from '../src/store/memory-store.ts';
import type { Store } from '../src/store/store.ts';
import {
  createOrder,
  getStatus,
  productsFile,
  readStatusEvents,
  upstreamIdOf,
  waitFor,
} from './order-fixtures.ts';
import { type Stack, startStack } from './support.ts';

/** A store that can hold one read of an order: it reads the record, then waits before handing it over. */
function gatedStore(inner: Store) {
  let gate: { id: string; skip: number; reached: () => void; release: Promise<void> } | undefined;
  const store: Store = {
    ...inner,
    async get<T>(collection: Parameters<Store['get']>[0], key: string) {
      const value = await inner.get<T>(collection, key);
      if (collection === 'orders' && gate?.id === key && gate.skip-- === 0) {
        const { reached, release } = gate;
        gate = undefined;
        reached();
        await release;
      }
      return value;
    },
  };
  /** Holds the (skip + 1)-th read of order `id`; resolves once that read has happened. */
  const hold = (id: string, skip: number, release: Promise<void>) =>
    new Promise<void>((reached) => {
      gate = { id, skip, reached, release };
    });
  return { store, hold };
}

const gated = gatedStore(createMemoryStore());
let stack: Stack;
before(async () => {
  stack = await startStack({ store: gated.store, env: { PRODUCTS_FILE: productsFile } });
});
after(() => stack.close());

test('an SSE stream sees a webhook that arrives while it reads the first state', async () => {
  const created = await createOrder(stack);
  // The order's first webhook reads the order too: let it be delivered before counting reads.
  await waitFor(async () => {
    const { data } = (await stack.control('GET', '/deliveries?merchant=test')) as {
      data: Array<{ body: string; state: string }>;
    };
    return data.some((d) => d.body.includes(upstreamIdOf(created)) && d.state !== 'pending') || undefined;
  }, 'the ORDER_CREATED webhook');
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  // Read 1 checks the status token; read 2 is the stream's first state, held until the payment is in.
  const held = gated.hold(created.orderId, 1, released);
  const events = await stack.api(`/api/orders/${created.orderId}/events?token=${created.statusToken}`);
  const reading = readStatusEvents(events, () => false, 4000);
  await held;
  await stack.control('POST', `/orders/${upstreamIdOf(created)}/pay`, { kind: 'exact' });
  await waitFor(
    async () => ((await getStatus(stack, created)).status === 'paid' ? true : undefined),
    'the webhook to be applied',
  );
  release();
  const { statuses, ended } = await reading;
  assert.equal(statuses.at(-1), 'paid', `statuses seen: ${statuses.join(', ')}`);
  assert.equal(ended, true, 'the stream closes after a final status');
});
