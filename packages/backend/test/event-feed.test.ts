/**
 * The admin event stream's feed (events/event-feed.ts) over PostgreSQL shared by two instances: what one instance
 * writes to the outbox, a stream held by the other hands on, once, oldest first; the last N, the events after a
 * reconnect's last id, a type filter, an event whose transaction landed after a newer one's, never a test event.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createEventFeed } from '../src/events/event-feed.ts';
import type { FulfilmentEvent } from '../src/events/fulfilment-events.ts';
import { createOutbox } from '../src/events/outbox.ts';
import { createSqlStore, type SqlStore } from '../src/store/sql-store.ts';
import { createDatabase, type Postgres, startPostgres } from './servers.ts';

/** An event as the outbox keeps it (the feed reads only its id, type and place in time). */
const event = (id: string, type: FulfilmentEvent['type'], orderId = `ord_${id}`): FulfilmentEvent =>
  ({ id, type, timestamp: '2026-12-07T12:00:00.000Z', data: { orderId } }) as unknown as FulfilmentEvent;

describe('the event feed across two instances on one PostgreSQL', () => {
  let postgres: Postgres;
  let dir: string;
  let a: SqlStore;
  let b: SqlStore;
  before(async () => {
    postgres = await startPostgres();
    dir = await mkdtemp(path.join(tmpdir(), 'cc-feed-'));
    const url = await createDatabase(postgres, 'event_feed');
    a = await createSqlStore({ databaseUrl: url, dataDir: dir });
    b = await createSqlStore({ databaseUrl: url, dataDir: dir });
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await postgres?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('what instance B writes, a stream on instance A hands on once, in order; last N and after an id', async () => {
    const outboxB = createOutbox(b, () => ['https://shop.example/hooks']);
    await outboxB.record([event('e1', 'order.created')], '2026-12-07T12:00:01.000Z');
    await outboxB.record([event('e2', 'order.paid')], '2026-12-07T12:00:02.000Z');

    const feed = createEventFeed(a);
    assert.deepEqual(
      (await feed.start(0)).map((e) => e.id),
      [],
      'nothing old unless asked',
    );
    await outboxB.record([event('e3', 'order.expired')], '2026-12-07T12:00:03.000Z');
    await outboxB.record([event('e4', 'webhook.test')], '2026-12-07T12:00:04.000Z');
    assert.deepEqual(
      (await feed.next()).map((e) => e.id),
      ['e3'],
      'the new event, and never a test event',
    );
    assert.deepEqual(await feed.next(), [], 'once');
    // Written by a transaction that committed after e3's, though it began before: still handed on.
    await outboxB.record([event('e5', 'order.failed')], '2026-12-07T12:00:02.500Z');
    assert.deepEqual(
      (await feed.next()).map((e) => e.id),
      ['e5'],
    );

    assert.deepEqual(
      (await createEventFeed(a).start(2)).map((e) => e.id),
      ['e5', 'e3'],
      'the 2 newest, oldest first',
    );
    assert.deepEqual(
      (await createEventFeed(a).start(0, 'e2')).map((e) => e.id),
      ['e5', 'e3'],
      'a reconnect gets what came after the last event it had',
    );
    const paidOnly = createEventFeed(a, { types: ['order.paid'] });
    assert.deepEqual(
      (await paidOnly.start(5)).map((e) => e.id),
      ['e2'],
    );
    await outboxB.record(
      [event('e6', 'order.created'), event('e7', 'order.paid')],
      '2026-12-07T12:00:05.000Z',
    );
    assert.deepEqual(
      (await paidOnly.next()).map((e) => e.id),
      ['e7'],
    );
  });
});
