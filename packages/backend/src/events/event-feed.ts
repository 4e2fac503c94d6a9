/**
 * The fulfilment events as they are written, for the admin's event stream (`crypto-checkout-backend listen`):
 * what is new in the store's outbox since the last look. Read from the store, not from this process, so an event
 * another instance wrote (PostgreSQL shared by several) arrives too, and nothing is missed across a restart of
 * the stream's instance: the listener reconnects with the last id it had and gets what came after.
 *
 * Each look reads the newest entries (a window) and hands on those it has not seen, oldest first: an event whose
 * transaction committed after a newer one's is still handed on, at its next look.
 */
import type { Store } from '../store/store.ts';
import { type FulfilmentEvent, testEventType } from './fulfilment-events.ts';
import type { OutboxEntry } from './outbox.ts';

/** Newest entries read at each look: more than any instance writes between two looks. */
const windowSize = 200;

export interface EventFeedOptions {
  /** Only these types (undefined: every fulfilment event). An endpoint's test event is never on the feed. */
  types?: readonly string[] | undefined;
}

export function createEventFeed(store: Store, options: EventFeedOptions = {}) {
  const wanted = (event: FulfilmentEvent) =>
    event.type !== testEventType && (!options.types || options.types.includes(event.type));
  let seen = new Set<string>();
  /** The window now, oldest first. */
  const read = async () => {
    const newest = await store.find<OutboxEntry>('outbox', {}, { newestFirst: true, limit: windowSize });
    return newest.reverse().map((entry) => entry.event);
  };
  return {
    /**
     * Starts the feed: the events to send first (oldest first), the `last` newest, or, given the id of the last
     * event a listener had (`after`, the SSE Last-Event-ID), every later one; from then on `next()` gives the new.
     */
    async start(last: number, after?: string): Promise<FulfilmentEvent[]> {
      const events = await read();
      seen = new Set(events.map((event) => event.id));
      const shown = events.filter(wanted);
      const from = after === undefined ? -1 : shown.findIndex((event) => event.id === after);
      if (from >= 0) return shown.slice(from + 1);
      return last > 0 ? shown.slice(-last) : [];
    },

    /** The events written since the last look (oldest first). */
    async next(): Promise<FulfilmentEvent[]> {
      const events = await read();
      const fresh = events.filter((event) => !seen.has(event.id));
      // What left the window cannot come back into it: the seen set is the window, never more.
      seen = new Set(events.map((event) => event.id));
      return fresh.filter(wanted);
    },
  };
}

export type EventFeed = ReturnType<typeof createEventFeed>;
