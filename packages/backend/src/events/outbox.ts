/**
 * The durable outbox of fulfilment events, in the store's `outbox` collection (one entry per event, with one
 * delivery per target). An event is written in the same transaction as the status change that causes it and
 * keyed by its stable id, so the two land together, and a repeated change (the upstream's retry, the next sync)
 * finds the event already there: nothing is lost and nothing is sent twice except as a retry.
 *
 * Order within an order: each event of an order is numbered as it is written (`sequence`: 1, 2, …, in the order
 * the changes happened, the change's transaction holding the order's row), and a delivery is due only once every
 * earlier event of that order has been delivered to the same target (or given up on): a later event waits while
 * an earlier one is retried, across restarts and instances. Events of different orders never wait on each other.
 */
import { createKeyedLock } from '../keyed-lock.ts';
import type { Store } from '../store/store.ts';
import type { FulfilmentEvent } from './fulfilment-events.ts';

/** Where an event goes: a MERCHANT_WEBHOOK_URL, or the in-process `onEvent` hook. */
export const hookTarget = 'hook:onEvent';

/** One attempt to deliver, as the admin reads it (the latest few are kept per delivery). */
export interface AttemptRecord {
  at: string;
  status: number | null;
  error: string | null;
  /** The start of the receiver's answer (a few hundred characters), when it answered. */
  responseExcerpt: string | null;
}

export interface Delivery {
  target: string;
  /** `failed` = given up: the receiver answered 410, or the retry window passed. */
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: string;
  /** Held by a worker until then (a claim that outlives a crash expires by itself). */
  leaseUntil: string | null;
  lastStatus: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  deliveredAt: string | null;
  /** The latest attempts, oldest first (absent on deliveries written before attempts were kept). */
  history?: AttemptRecord[];
}

/** Attempts kept per delivery. */
const attemptsKept = 20;

export interface OutboxEntry {
  event: FulfilmentEvent;
  /** The order of ours the event is about, for the admin's filter. */
  orderId: string | null;
  createdAt: string;
  deliveries: Delivery[];
}

export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  /** When to try again; ignored when `ok` or `giveUp`. */
  nextAttemptAt: string | null;
  giveUp: boolean;
  responseExcerpt?: string | null;
}

/** Who an event is delivered to, read in the change's transaction (`via`): targets are endpoints (endpoints.ts). */
export type TargetsOf = (
  event: FulfilmentEvent,
  via: Store,
) => readonly string[] | Promise<readonly string[]>;

const orderIdOf = (event: FulfilmentEvent) => ('orderId' in event.data ? event.data.orderId : null);

/** What an event's place is kept within: our order, a ramp order, or a deposit (each its own sequence). */
const subjectOf = (event: FulfilmentEvent) => {
  const data = event.data as unknown as Record<string, unknown>;
  // A test event waits for nothing and holds up nothing.
  if (data['endpointId'] !== undefined) return `test:${event.id}`;
  return String(
    data['orderId'] ?? `ramp:${data['rampOrderId'] ?? ''}:deposit:${data['upstreamOrderId'] ?? ''}`,
  );
};

const pending = (target: string, now: string): Delivery => ({
  target,
  state: 'pending',
  attempts: 0,
  nextAttemptAt: now,
  leaseUntil: null,
  lastStatus: null,
  lastError: null,
  lastAttemptAt: null,
  deliveredAt: null,
});

export function createOutbox(store: Store, targets: TargetsOf) {
  const lock = createKeyedLock();
  // The keyed lock serialises this process; the transaction (a row lock in PostgreSQL) the other instances.
  const update = (id: string, change: (entry: OutboxEntry) => OutboxEntry | undefined) =>
    lock.run(id, () =>
      store.transaction(async (tx) => {
        const entry = await tx.get<OutboxEntry>('outbox', id);
        const next = entry && change(entry);
        if (next) await tx.set('outbox', id, next);
        return next;
      }),
    );

  return {
    /** Changes one entry under its lock and in a transaction (endpoint-deliveries.ts); undefined = unchanged. */
    change: update,

    /** A pending delivery to `target`, due at `now` (a new one, or one put back). */
    pendingDelivery: pending,

    /**
     * Writes each event once (by id), with a pending delivery per target, due at `now`. Pass the transaction
     * the status change is written in as `via`, so both land or neither does.
     */
    async record(events: readonly FulfilmentEvent[], now: string, via: Store = store): Promise<void> {
      let written: number | undefined;
      for (const event of events) {
        if (await via.get<OutboxEntry>('outbox', event.id)) continue;
        const orderId = orderIdOf(event);
        // The order's events so far (read in the change's transaction, which holds the order): this one is next.
        written ??= orderId ? (await via.find<OutboxEntry>('outbox', { orderId })).length : 0;
        written += 1;
        const deliveries = (await targets(event, via)).map((target) => pending(target, now));
        await via.setIfAbsent<OutboxEntry>('outbox', event.id, {
          event: { ...event, sequence: written },
          orderId,
          createdAt: now,
          deliveries,
        });
      }
    },

    /**
     * Leases up to `limit` due deliveries for `leaseMs`, oldest event first. A delivery whose order has an earlier
     * event still pending for the same target (due, waiting for its retry, or leased elsewhere) is not due.
     */
    async claimDue(now: string, limit: number, leaseMs: number) {
      const ready = (d: Delivery) =>
        d.state === 'pending' && d.nextAttemptAt <= now && (d.leaseUntil ?? '') <= now;
      const waiting = await store.find<OutboxEntry>('outbox', { pending: 1 });
      // Each order's pending events by place (entries written before sequences were kept count as first).
      waiting.sort(
        (a, b) => (a.event.sequence ?? 0) - (b.event.sequence ?? 0) || a.createdAt.localeCompare(b.createdAt),
      );
      const first = new Map<string, string>();
      for (const entry of waiting) {
        for (const delivery of entry.deliveries) {
          if (delivery.state !== 'pending') continue;
          const key = `${subjectOf(entry.event)}\0${delivery.target}`;
          if (!first.has(key)) first.set(key, entry.event.id);
        }
      }
      const due = (d: Delivery, entry: OutboxEntry) =>
        ready(d) && first.get(`${subjectOf(entry.event)}\0${d.target}`) === entry.event.id;
      const entries = waiting
        .filter((entry) => entry.deliveries.some((d) => due(d, entry)))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      const claimed: Array<{ entry: OutboxEntry; delivery: Delivery }> = [];
      const leaseUntil = new Date(Date.parse(now) + leaseMs).toISOString();
      for (const candidate of entries) {
        if (claimed.length >= limit) break;
        const taken: Delivery[] = [];
        const entry = await update(candidate.event.id, (current) => {
          for (const delivery of current.deliveries) {
            if (claimed.length + taken.length < limit && due(delivery, current)) {
              delivery.leaseUntil = leaseUntil;
              taken.push(delivery);
            }
          }
          return taken.length ? current : undefined;
        });
        if (entry) for (const delivery of taken) claimed.push({ entry, delivery });
      }
      return claimed;
    },

    async recordAttempt(eventId: string, target: string, outcome: AttemptOutcome, now: string) {
      await update(eventId, (entry) => {
        const delivery = entry.deliveries.find((d) => d.target === target);
        if (delivery?.state !== 'pending') return undefined;
        delivery.attempts += 1;
        delivery.lastAttemptAt = now;
        delivery.lastStatus = outcome.status;
        delivery.lastError = outcome.ok ? null : outcome.error;
        delivery.leaseUntil = null;
        delivery.history = [
          ...(delivery.history ?? []),
          {
            at: now,
            status: outcome.status,
            error: outcome.ok ? null : outcome.error,
            responseExcerpt: outcome.responseExcerpt ?? null,
          },
        ].slice(-attemptsKept);
        if (outcome.ok) {
          delivery.state = 'delivered';
          delivery.deliveredAt = now;
        } else if (outcome.giveUp || !outcome.nextAttemptAt) {
          delivery.state = 'failed';
        } else {
          delivery.nextAttemptAt = outcome.nextAttemptAt;
        }
        return entry;
      });
    },

    /** Events newest first, with their deliveries. */
    async list(filter: { orderId?: string; state?: Delivery['state']; limit: number }) {
      const where = {
        ...(filter.orderId ? { orderId: filter.orderId } : {}),
        ...(filter.state === 'pending' ? { pending: 1 } : {}),
      };
      // Without a state to check in each entry, the database applies the limit (an index serves the order).
      const exact = !filter.state || filter.state === 'pending';
      const entries = await store.find<OutboxEntry>('outbox', where, {
        newestFirst: true,
        ...(exact ? { limit: filter.limit } : {}),
      });
      return entries
        .filter((entry) => !filter.state || entry.deliveries.some((d) => d.state === filter.state))
        .slice(0, filter.limit);
    },

    /**
     * Puts an event's deliveries (or the one to `target`) back to pending, due at `now`; receivers configured
     * since the event was written get it too. Undefined when the event is unknown.
     */
    async resend(eventId: string, now: string, target?: string): Promise<OutboxEntry | undefined> {
      const stored = await store.get<OutboxEntry>('outbox', eventId);
      if (!stored) return undefined;
      const wantedTargets = target ? [] : await targets(stored.event, store);
      return update(eventId, (entry) => {
        for (const wanted of wantedTargets) {
          if (!entry.deliveries.some((d) => d.target === wanted)) entry.deliveries.push(pending(wanted, now));
        }
        for (const delivery of entry.deliveries) {
          if (target && delivery.target !== target) continue;
          delivery.state = 'pending';
          delivery.nextAttemptAt = now;
          delivery.leaseUntil = null;
        }
        return entry;
      });
    },

    /**
     * Puts every given-up delivery (`failed`) of the events created in `[from, to)` (or of all events) back to
     * pending, due at `now`; delivered and pending ones are left as they are, so asking twice sends nothing twice.
     * Returns how many events and deliveries it put back. Reads the given-up events a page at a time, newest first.
     */
    async resendGivenUp(range: { from?: string | undefined; to?: string | undefined }, now: string) {
      let events = 0;
      let deliveries = 0;
      let before = range.to;
      for (;;) {
        const page = await store.find<OutboxEntry>(
          'outbox',
          { pending: 0 },
          { newestFirst: true, limit: resendPage, ...(before ? { createdBefore: before } : {}) },
        );
        for (const candidate of page) {
          if (range.from && candidate.createdAt < range.from) return { events, deliveries };
          if (!candidate.deliveries.some((d) => d.state === 'failed')) continue;
          let putBack = 0;
          await update(candidate.event.id, (entry) => {
            for (const delivery of entry.deliveries) {
              if (delivery.state !== 'failed') continue;
              delivery.state = 'pending';
              delivery.nextAttemptAt = now;
              delivery.leaseUntil = null;
              putBack += 1;
            }
            return putBack ? entry : undefined;
          });
          if (putBack) {
            events += 1;
            deliveries += putBack;
          }
        }
        const last = page[page.length - 1];
        if (page.length < resendPage || !last) return { events, deliveries };
        // Events written together share their time: the next page starts within the last one's millisecond (those
        // seen again are pending by now, so skipped), unless a whole page was that one millisecond.
        const next = new Date(Date.parse(last.createdAt) + 1).toISOString();
        before = before !== undefined && next >= before ? last.createdAt : next;
      }
    },
  };
}

/** Given-up events (or events of a range) read at a time by a bulk re-send or a replay. */
const resendPage = 200;

export type Outbox = ReturnType<typeof createOutbox>;
