/**
 * The durable outbox of fulfilment events, in the store's `outbox` collection (one entry per event, with one
 * delivery per target). An event is written before the status change that causes it and keyed by its stable id,
 * so a crash between the two loses nothing (the upstream's retry or the next sync repeats the change, which finds
 * the event already there) and sends nothing twice except as a retry.
 */
import { createKeyedLock } from '../keyed-lock.ts';
import type { Store } from '../store/store.ts';
import type { FulfilmentEvent } from './fulfilment-events.ts';

/** Where an event goes: a MERCHANT_WEBHOOK_URL, or the in-process `onEvent` hook. */
export const hookTarget = 'hook:onEvent';

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
}

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
}

const orderIdOf = (event: FulfilmentEvent) => ('orderId' in event.data ? event.data.orderId : null);

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

export function createOutbox(store: Store, targets: () => readonly string[]) {
  const lock = createKeyedLock();
  const update = (id: string, change: (entry: OutboxEntry) => OutboxEntry | undefined) =>
    lock.run(id, async () => {
      const entry = await store.get<OutboxEntry>('outbox', id);
      const next = entry && change(entry);
      if (next) await store.set('outbox', id, next);
      return next;
    });

  return {
    /** Writes each event once (by id), with a pending delivery per target, due at `now`. */
    async record(events: readonly FulfilmentEvent[], now: string): Promise<void> {
      for (const event of events) {
        const deliveries = targets().map((target) => pending(target, now));
        await store.setIfAbsent<OutboxEntry>('outbox', event.id, {
          event,
          orderId: orderIdOf(event),
          createdAt: now,
          deliveries,
        });
      }
    },

    /** Leases up to `limit` due deliveries for `leaseMs`, oldest event first. */
    async claimDue(now: string, limit: number, leaseMs: number) {
      const due = (d: Delivery) =>
        d.state === 'pending' && d.nextAttemptAt <= now && (d.leaseUntil ?? '') <= now;
      const entries = (await store.values<OutboxEntry>('outbox'))
        .filter((entry) => entry.deliveries.some(due))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      const claimed: Array<{ entry: OutboxEntry; delivery: Delivery }> = [];
      const leaseUntil = new Date(Date.parse(now) + leaseMs).toISOString();
      for (const candidate of entries) {
        if (claimed.length >= limit) break;
        const taken: Delivery[] = [];
        const entry = await update(candidate.event.id, (current) => {
          for (const delivery of current.deliveries) {
            if (claimed.length + taken.length < limit && due(delivery)) {
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
      return (await store.values<OutboxEntry>('outbox'))
        .filter((entry) => !filter.orderId || entry.orderId === filter.orderId)
        .filter((entry) => !filter.state || entry.deliveries.some((d) => d.state === filter.state))
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
        .slice(0, filter.limit);
    },

    /**
     * Puts an event's deliveries (or the one to `target`) back to pending, due at `now`; receivers configured
     * since the event was written get it too. Undefined when the event is unknown.
     */
    async resend(eventId: string, now: string, target?: string): Promise<OutboxEntry | undefined> {
      const stored = await store.get<OutboxEntry>('outbox', eventId);
      if (!stored) return undefined;
      return update(eventId, (entry) => {
        for (const wanted of targets()) {
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
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
