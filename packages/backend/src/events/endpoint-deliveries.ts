/**
 * The outbox as one webhook endpoint sees it: a test event for it alone, a replay of a time range to it, and its
 * deliveries with their attempts, newest first (keyset paged by the event's createdAt and id).
 */
import { randomBytes } from 'node:crypto';
import type { Store } from '../store/store.ts';
import { type FulfilmentEvent, testEventType } from './fulfilment-events.ts';
import type { Outbox, OutboxEntry } from './outbox.ts';

/** Entries read at a time while paging back through the outbox. */
const page = 200;
/** A deliveries page looks at most this many events for the endpoint's (then answers a cursor to go on). */
const scanLimit = 5000;

const cursorOf = (entry: OutboxEntry) =>
  Buffer.from(JSON.stringify([entry.createdAt, entry.event.id])).toString('base64url');

export function readDeliveryCursor(cursor: string): { createdAt: string; id: string } | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((part) => typeof part === 'string'))
      return { createdAt: value[0] as string, id: value[1] as string };
  } catch {
    // not ours
  }
  return undefined;
}

/** Whether `entry` comes after `cursor` in newest-first order (createdAt, then id, both descending). */
const after = (entry: OutboxEntry, cursor: { createdAt: string; id: string } | undefined) =>
  !cursor ||
  entry.createdAt < cursor.createdAt ||
  (entry.createdAt === cursor.createdAt && entry.event.id < cursor.id);

/**
 * The outbox newest first from `before` (exclusive position), in pages; `visit` returns false to stop. Events
 * written in one millisecond are all read (the next page starts within the last one's millisecond).
 */
async function walkBack(
  store: Store,
  start: { createdAt: string; id: string } | undefined,
  visit: (entry: OutboxEntry) => Promise<boolean> | boolean,
  until?: string,
): Promise<void> {
  let position = start;
  for (;;) {
    const createdBefore = position ? new Date(Date.parse(position.createdAt) + 1).toISOString() : undefined;
    const found = await store.find<OutboxEntry>(
      'outbox',
      {},
      { newestFirst: true, limit: page, ...(createdBefore ? { createdBefore } : {}) },
    );
    const fresh = found
      .filter((entry) => after(entry, position))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.event.id.localeCompare(a.event.id));
    for (const entry of fresh) {
      if (until !== undefined && entry.createdAt < until) return;
      if (!(await visit(entry))) return;
      position = { createdAt: entry.createdAt, id: entry.event.id };
    }
    // A page that moved nothing on (all within the position's millisecond, already seen) or ran out ends it.
    if (found.length < page || fresh.length === 0) return;
  }
}

export function createEndpointDeliveries(store: Store, outbox: Outbox) {
  return {
    /** Writes a `webhook.test` event with one delivery, to `target`, due now; its id. */
    async sendTest(endpointId: string, target: string, now: string): Promise<string> {
      const event: FulfilmentEvent = {
        id: `evt_test_${randomBytes(12).toString('base64url')}`,
        type: testEventType,
        timestamp: now,
        sequence: 1,
        data: { endpointId, message: 'A test event sent from the admin API: no order is behind it.' },
      };
      await store.setIfAbsent<OutboxEntry>('outbox', event.id, {
        event,
        orderId: null,
        createdAt: now,
        deliveries: [outbox.pendingDelivery(target, now)],
      });
      return event.id;
    },

    /**
     * Every event created in `[from, to)` that the endpoint hears is sent to it again (a delivery added, or put back
     * to pending), due now, whatever became of it before. Test events are not replayed. Returns how many.
     */
    async replay(
      target: string,
      wants: (event: FulfilmentEvent) => boolean,
      range: { from: string; to: string },
      now: string,
    ): Promise<number> {
      let queued = 0;
      const start = { createdAt: new Date(Date.parse(range.to) - 1).toISOString(), id: '\uffff' };
      await walkBack(
        store,
        start,
        async (candidate) => {
          if (candidate.event.type === testEventType || !wants(candidate.event)) return true;
          const changed = await outbox.change(candidate.event.id, (entry) => {
            const delivery = entry.deliveries.find((d) => d.target === target);
            if (!delivery) entry.deliveries.push(outbox.pendingDelivery(target, now));
            else {
              delivery.state = 'pending';
              delivery.nextAttemptAt = now;
              delivery.leaseUntil = null;
            }
            return entry;
          });
          if (changed) queued += 1;
          return true;
        },
        range.from,
      );
      return queued;
    },

    /** The endpoint's deliveries, newest event first, from `cursor`; `nextCursor` null at the end. */
    async list(target: string, limit: number, cursor?: { createdAt: string; id: string }) {
      const deliveries: Array<{ entry: OutboxEntry; delivery: OutboxEntry['deliveries'][number] }> = [];
      let scanned = 0;
      let last: OutboxEntry | undefined;
      let more = false;
      await walkBack(store, cursor, (entry) => {
        if (deliveries.length >= limit || scanned >= scanLimit) {
          more = true;
          return false;
        }
        scanned += 1;
        last = entry;
        const delivery = entry.deliveries.find((d) => d.target === target);
        if (delivery) deliveries.push({ entry, delivery });
        return true;
      });
      return { deliveries, nextCursor: more && last ? cursorOf(last) : null };
    },
  };
}

export type EndpointDeliveries = ReturnType<typeof createEndpointDeliveries>;
