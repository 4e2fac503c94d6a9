/**
 * The follower of unfinished orders: every order that is not final (or expired, through its late window) is read again from the upstream in the
 * background, so an order reaches its final state and its event (`order.expired`, a cancel, a payment nobody's page
 * saw) with no browser open and no webhook (the upstream's payments webhooks say nothing of expiry or cancels:
 * docs/upstream.md#payments-webhooks).
 *
 * Across instances the work is done once: an order is claimed for one look by writing a lease on it inside the
 * store's transaction (a row lock in PostgreSQL, the one writer in SQLite), and only the instance whose claim
 * landed reads it. The reads spend the upstream budget (shared through Redis with REDIS_URL), at most `share` of
 * it, so shoppers' quotes are never crowded out; a round that finds the budget spent waits for the next.
 */
import type { Clock } from '../clock.ts';
import { type LogLine, logger } from '../logger.ts';
import type { Store } from '../store/store.ts';
import type { Budget } from '../upstream/budget.ts';
import type { OrderLedger } from './ledger.ts';
import type { OrderRecord } from './order.ts';
import { DAY_MS, defaultPaymentPolicy, type PaymentPolicy, stillWatched } from './payment-policy.ts';

/** What the follower keeps on an order: when it was last read for the follower, and who holds it until when. */
export interface FollowMark {
  lookedAt: string;
  leaseUntil: string;
}

export interface FollowerDeps {
  store: Store;
  clock: Clock;
  ledger: Pick<OrderLedger, 'sync'>;
  /** The upstream budget; absent: reads are not counted (tests, an app without one). */
  budget?: Pick<Budget, 'acquire' | 'stats' | 'perSecond'> | undefined;
}

export interface FollowerSettings {
  /** How often each unfinished order is read (ms). */
  everyMs: number;
  /** Share of the upstream budget the follower may hold at once (0: never runs). */
  share: number;
  /**
   * How long after its expiry (or, without one, its creation plus a day) an unfinished order is still followed:
   * past it the upstream has nothing more to say of it (ms; default a day, the late-payment window).
   */
  followForMs?: number;
  /** The payment policy: an expired order is followed through its late window (a payment may still come). */
  policy?: PaymentPolicy | undefined;
  /** Orders read per round at most (default 50). */
  batch?: number;
  log?: LogLine;
}

export function createOrderFollower(deps: FollowerDeps, settings: FollowerSettings) {
  const { store, clock, ledger, budget } = deps;
  const policy = settings.policy ?? defaultPaymentPolicy;
  const followForMs = settings.followForMs ?? policy.lateWindowMs;
  const batch = settings.batch ?? 50;
  const log = settings.log ?? logger.warn;
  // A claimed order is held for a look's worst case (the upstream's timeout and some): an instance killed mid-look
  // leaves its lease to expire, and the order is read by another one at its next round.
  const leaseMs = Math.max(settings.everyMs, 30_000);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  const iso = (ms: number) => new Date(ms).toISOString();

  /** Until when `record` is worth following: its expiry (or creation plus a day) plus `followForMs`. */
  const followUntil = (record: OrderRecord) =>
    (record.expiresAt ? Date.parse(record.expiresAt) : Date.parse(record.createdAt) + DAY_MS) + followForMs;

  const due = (record: OrderRecord & { follow?: FollowMark }, now: number) =>
    stillWatched(record, now, policy) &&
    now <= followUntil(record) &&
    Date.parse(record.follow?.leaseUntil ?? '1970-01-01T00:00:00Z') <= now &&
    now - Date.parse(record.follow?.lookedAt ?? record.createdAt) >= settings.everyMs;

  /** Takes the order for one look, in a transaction: false when another instance took it first. */
  async function claim(id: string, now: number): Promise<boolean> {
    return store.transaction(async (tx) => {
      const record = await tx.get<OrderRecord & { follow?: FollowMark }>('orders', id);
      if (!record || !due(record, now)) return false;
      const follow: FollowMark = { lookedAt: iso(now), leaseUntil: iso(now + leaseMs) };
      await tx.set('orders', id, { ...record, follow });
      return true;
    });
  }

  /** Whether the follower may take one more token: its share of the budget, never the shoppers'. */
  const budgetLeft = () =>
    !budget || budget.stats().inWindow < Math.max(1, Math.floor(budget.perSecond * settings.share));

  /** One pass over the unfinished orders that are due; returns how many were read. */
  async function round(): Promise<number> {
    const now = clock.now();
    const open = (await store.values<OrderRecord & { follow?: FollowMark }>('orders'))
      .filter((record) => due(record, now))
      .sort((a, b) => (a.follow?.lookedAt ?? a.createdAt).localeCompare(b.follow?.lookedAt ?? b.createdAt));
    let read = 0;
    for (const record of open.slice(0, batch)) {
      if (stopped || !budgetLeft()) break;
      if (!(await claim(record.id, now))) continue;
      let release: (() => void) | undefined;
      try {
        release = budget ? await budget.acquire() : undefined;
      } catch {
        // The budget is spent (UPSTREAM_BUSY): this order is read at a later round.
        break;
      }
      try {
        // The ledger's own read (the upstream's list, then `apply`): what it learns is applied once, with its events.
        await ledger.sync(record.id, 0);
        read += 1;
      } finally {
        release?.();
      }
    }
    return read;
  }

  const tick = () => {
    if (stopped || running) return;
    running = round()
      .catch((error: Error) => {
        log(`[follower] following unfinished orders failed: ${error.message}`);
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
  };

  return {
    round,
    start() {
      if (settings.share <= 0 || timer) return;
      stopped = false;
      // A round at a fraction of the interval: an order becomes due at its own time, not the timer's.
      timer = setInterval(tick, Math.max(1000, Math.floor(settings.everyMs / 4)));
      timer.unref?.();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

export type OrderFollower = ReturnType<typeof createOrderFollower>;
