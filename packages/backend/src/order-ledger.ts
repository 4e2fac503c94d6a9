/**
 * The ledger of orders this backend created, with their status history, and the in-process status hub that
 * tells SSE listeners at once when a webhook or a sync moves an order. One ledger per app instance (createApp
 * builds it and hands it to the orders, webhooks and admin routes), so nothing lives at module level.
 *
 * Every change goes through `apply`, serialised per order (a keyed lock here, a row lock in the database across
 * instances), and only ever moves a status forward; the store refuses a backward write as well.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AppDeps } from './deps.ts';
import { orderEvents } from './events/fulfilment-events.ts';
import { createKeyedLock } from './keyed-lock.ts';
import { logger } from './logger.ts';
import { plainString, sum } from './money.ts';
import { isFinal, isProgress, mapUpstreamStatus, type OrderStatus } from './order-status.ts';
import type { UpstreamOrder } from './schemas/upstream-payments.ts';
import type { Store } from './store/store.ts';

export interface OrderProduct {
  /** Catalog id, when the order came from PRODUCTS_FILE. */
  id: string | null;
  name: string;
  description: string;
  imageUrl: string | null;
  price: string;
  currency: string;
  /** The merchant's own reference from a checkout token. */
  reference: string | null;
}

export interface StatusChange {
  status: OrderStatus;
  upstreamStatus: string;
  at: string;
  source: 'created' | 'webhook' | 'sync' | 'return';
}

export interface OrderRecord {
  /** Ours: known before the upstream call, so it can sit in `metadata.redirectUrl` and `externalId`. */
  id: string;
  upstreamId: string;
  link: string;
  status: OrderStatus;
  upstreamStatus: string;
  product: OrderProduct;
  returnUrl: string | null;
  /** The allowed storefront origin the order was created from (postMessage target when no returnUrl). */
  origin: string | null;
  /** What the shopper gave at checkout (told to the merchant's own systems in fulfilment events). */
  customer?: { name: string | null; email: string | null; country: string | null };
  /** sha256 of the status token; the token itself is only in the create response (and its replay). */
  statusTokenHash: string;
  paid: { amount: string; currency: string } | null;
  history: StatusChange[];
  createdAt: string;
  updatedAt: string;
  expiresAt: string | null;
}

export interface OrderView {
  orderId: string;
  status: OrderStatus;
  final: boolean;
  upstreamStatus: string;
  amount: string;
  currency: string;
  paid?: { amount: string; currency: string };
  returnUrl?: string;
  updatedAt: string;
}

export function orderView(record: OrderRecord): OrderView {
  return {
    orderId: record.id,
    status: record.status,
    final: isFinal(record.status),
    upstreamStatus: record.upstreamStatus,
    amount: record.product.price,
    currency: record.product.currency,
    ...(record.paid ? { paid: record.paid } : {}),
    ...(record.returnUrl ? { returnUrl: record.returnUrl } : {}),
    updatedAt: record.updatedAt,
  };
}

/**
 * Whether two upstream order ids name the same order: the older payloads and answers prefix ids with `SP-`, the
 * newer do not. Ids are kept as they came; only comparisons are lenient.
 */
export const sameUpstreamOrder = (a: string, b: string) => a.replace(/^SP-/, '') === b.replace(/^SP-/, '');

export const hashToken = (token: string) => createHash('sha256').update(token).digest();

/** Constant-time check of a presented status token against the stored hash. */
export function statusTokenMatches(record: OrderRecord, token: string | undefined): boolean {
  if (!token) return false;
  const expected = Buffer.from(record.statusTokenHash, 'hex');
  const given = hashToken(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** What the upstream says about an order: its status and, when known, what was paid. */
export interface UpstreamFacts {
  upstreamStatus: string;
  paid?: { amount: string; currency: string } | null;
}

/** Status and paid amount read from an upstream order (list or create answer). */
export function factsOf(order: UpstreamOrder): UpstreamFacts | undefined {
  if (!order.status) return undefined;
  const payments = order.payments.filter((payment) => payment.receivedAmount && payment.receivedCurrency);
  const currency = payments[0]?.receivedCurrency;
  const same = payments.filter((payment) => payment.receivedCurrency === currency);
  return {
    upstreamStatus: order.status,
    paid: currency ? { amount: plainString(sum(same.map((p) => p.receivedAmount ?? '0'))), currency } : null,
  };
}

export type Listener = (record: OrderRecord) => void;

export interface LedgerOptions {
  /** A GET re-reads the upstream list when the last sync is older than this (default 5 s). */
  syncMaxAgeMs?: number;
  log?: (line: string) => void;
}

export function createOrderLedger(deps: AppDeps, options: LedgerOptions = {}) {
  const { store, clock, payments } = deps;
  const syncMaxAgeMs = options.syncMaxAgeMs ?? 5000;
  const log = options.log ?? logger.warn;
  const lock = createKeyedLock();
  const listeners = new Map<string, Set<Listener>>();
  const syncedAt = new Map<string, number>();
  const syncing = new Map<string, Promise<OrderRecord | undefined>>();
  // Orders whose upstream call is running: the upstream may send its first webhook before we have stored it.
  const creating = new Map<string, Promise<unknown>>();
  const iso = () => new Date(clock.now()).toISOString();

  const notify = (record: OrderRecord) => {
    for (const listener of listeners.get(record.id) ?? []) {
      try {
        listener(record);
      } catch (error) {
        log(`[ledger] a status listener failed: ${(error as Error).name}`);
      }
    }
  };

  // With Redis, a change made here reaches the streams open on the other instances, and theirs reach ours:
  // the message names the order, and the record is read from the shared store.
  const publish = (record: OrderRecord) => {
    notify(record);
    deps.shared?.fanout.publish(record.id);
  };
  deps.shared?.fanout.onOrder((id) => {
    if (!listeners.has(id)) return;
    store.get<OrderRecord>('orders', id).then(
      (record) => record && notify(record),
      (error: Error) => log(`[ledger] reading an order another instance changed failed: ${error.message}`),
    );
  });

  const ledger = {
    get: (id: string) => store.get<OrderRecord>('orders', id),

    async create(record: OrderRecord): Promise<void> {
      // The order and the event announcing it land together (see events/outbox.ts).
      await store.transaction(async (tx) => {
        await deps.outbox.record(orderEvents(undefined, record), iso(), tx);
        await tx.set('orders', record.id, record);
      });
      syncedAt.set(record.id, clock.now());
    },

    /** Marks `id` as being created until `work` settles (see `creation`). */
    track<T>(id: string, work: Promise<T>): Promise<T> {
      creating.set(id, work);
      const done = () => {
        if (creating.get(id) === work) creating.delete(id);
      };
      work.then(done, done);
      return work;
    },

    /** Waits (at most `timeoutMs`) for an order of ours that is still being created, then reads it. */
    async afterCreation(id: string, timeoutMs = 15_000): Promise<OrderRecord | undefined> {
      const work = creating.get(id);
      if (work) {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
        });
        await Promise.race([work.catch(() => undefined), timeout]);
        clearTimeout(timer);
      }
      return store.get<OrderRecord>('orders', id);
    },

    /** Finds an order by the upstream id when a webhook does not carry our reference. */
    async findByUpstreamId(upstreamId: string): Promise<OrderRecord | undefined> {
      const [found] = await store.find<OrderRecord>('orders', {
        upstreamKey: upstreamId.replace(/^SP-/, ''),
      });
      return found;
    },

    /**
     * Records what the upstream says if it is progress (never backwards); tells listeners when anything
     * visible changed. Returns the record as it now is.
     */
    apply(id: string, facts: UpstreamFacts, source: StatusChange['source']) {
      // The keyed lock orders this process's changes; the transaction's row lock those of other instances.
      return lock.run(id, async () => {
        const next = await store.transaction((tx) => ledger.applyIn(tx, id, facts, source));
        if (next?.changed) publish(next.record);
        return next?.record;
      });
    },

    /** `apply`'s read-decide-write, inside the transaction `tx`: the status and its events land together. */
    async applyIn(tx: Store, id: string, facts: UpstreamFacts, source: StatusChange['source']) {
      const record = await tx.get<OrderRecord>('orders', id);
      if (!record) return undefined;
      const mapped = mapUpstreamStatus(facts.upstreamStatus);
      const progress = mapped !== undefined && isProgress(record, facts.upstreamStatus);
      // Top-ups on an underpaid order change the paid amount without changing the status.
      const paidChanged =
        facts.paid != null &&
        !isFinal(record.status) &&
        (progress || facts.upstreamStatus.toUpperCase() === record.upstreamStatus.toUpperCase()) &&
        (facts.paid.amount !== record.paid?.amount || facts.paid.currency !== record.paid?.currency);
      if (!progress && !paidChanged) return { record, changed: false };
      const at = iso();
      const next: OrderRecord = { ...record, updatedAt: at };
      if (progress && mapped) {
        next.status = mapped;
        next.upstreamStatus = facts.upstreamStatus.toUpperCase();
        next.history = [
          ...record.history,
          { status: mapped, upstreamStatus: next.upstreamStatus, at, source },
        ];
      }
      if (facts.paid && (paidChanged || progress)) next.paid = facts.paid;
      await deps.outbox.record(orderEvents(record, next), at, tx);
      await tx.set('orders', id, next);
      return { record: next, changed: true };
    },

    /**
     * Re-reads the order from the upstream list when the last look is older than `maxAgeMs` (one call in
     * flight per order). The fallback for when webhooks do not arrive. Failures are logged, not thrown:
     * the caller still answers with what the ledger knows.
     */
    async sync(id: string, maxAgeMs = syncMaxAgeMs): Promise<OrderRecord | undefined> {
      const running = syncing.get(id);
      if (running) return running;
      const record = await store.get<OrderRecord>('orders', id);
      if (!record || isFinal(record.status)) return record;
      if (clock.now() - (syncedAt.get(id) ?? 0) < maxAgeMs) return record;
      const work = (async () => {
        try {
          syncedAt.set(id, clock.now());
          const { orders } = await payments.listOrders({ searchId: record.upstreamId, limit: 10 });
          const found = orders.find((order) => sameUpstreamOrder(order.id, record.upstreamId));
          const facts = found && factsOf(found);
          if (!facts) return record;
          return (await ledger.apply(id, facts, 'sync')) ?? record;
        } catch (error) {
          log(`[ledger] status sync for an order failed: ${(error as Error).message}`);
          return record;
        } finally {
          syncing.delete(id);
        }
      })();
      syncing.set(id, work);
      return work;
    },

    /**
     * `sync`, but a slow upstream does not hold the caller longer than `waitMs`: it then gets what the ledger
     * has, and the sync finishes in the background (telling listeners if it changes anything).
     */
    async fresh(id: string, options: { maxAgeMs?: number; waitMs?: number } = {}) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), options.waitMs ?? 2000);
      });
      const result = await Promise.race([ledger.sync(id, options.maxAgeMs), late]);
      clearTimeout(timer);
      return result === 'late' ? store.get<OrderRecord>('orders', id) : result;
    },

    /** Registers a listener for one order; returns the function that removes it. */
    subscribe(id: string, listener: Listener): () => void {
      let set = listeners.get(id);
      if (!set) {
        set = new Set();
        listeners.set(id, set);
      }
      set.add(listener);
      return () => {
        const current = listeners.get(id);
        current?.delete(listener);
        if (current?.size === 0) listeners.delete(id);
      };
    },

    listenerCount: (id: string) => listeners.get(id)?.size ?? 0,
  };
  return ledger;
}

export type OrderLedger = ReturnType<typeof createOrderLedger>;
