/**
 * The ledger of orders this backend created, with their status history, and the in-process status hub that
 * tells SSE listeners at once when a webhook or a sync moves an order. One ledger per app instance (createApp
 * builds it and hands it to the orders, webhooks and admin routes), so nothing lives at module level.
 *
 * Every change goes through `apply`, serialised per order (a keyed lock here, a row lock in the database across
 * instances), and only ever moves a status forward; the store refuses a backward write as well.
 */
import type { Clock } from '../clock.ts';
import { orderEvents } from '../events/fulfilment-events.ts';
import type { Outbox } from '../events/outbox.ts';
import { createKeyedLock } from '../keyed-lock.ts';
import { type LogLine, logger } from '../logger.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { createOutageLog } from '../outage-log.ts';
import type { OrderFanout } from '../shared/redis.ts';
import type { Store } from '../store/store.ts';
import type { PaymentsClient } from '../upstream/payments-client.ts';
import type { OrderRecord, StatusChange } from './order.ts';
import {
  defaultPaymentPolicy,
  lateMoney,
  newMoney,
  type PaymentPolicy,
  settleUnderpaid,
  stillWatched,
} from './payment-policy.ts';
import { isFinal, isProgress, mapUpstreamStatus } from './status.ts';
import {
  factsOf,
  mergedCustomer,
  sameUpstreamOrder,
  type UpstreamFacts,
  upstreamKey,
} from './upstream-facts.ts';

export type Listener = (record: OrderRecord) => void;

/** What the ledger uses, and nothing more. */
export interface LedgerDeps {
  /** Where orders live (collection `orders`), changed in transactions with their events. */
  store: Store;
  clock: Clock;
  /** Its order list: the fallback for a status no webhook told. */
  payments: Pick<PaymentsClient, 'listOrders'>;
  /** Where the fulfilment events a change causes are written, in the change's transaction. */
  outbox: Pick<Outbox, 'record'>;
  /** With Redis: tells the other instances' status streams, and hears theirs. */
  fanout?: OrderFanout | undefined;
  /** Counts orders made and status changes (once committed). */
  metrics?: Pick<Metrics, 'orderCreated' | 'orderStatusChanged'> | undefined;
}

export interface LedgerOptions {
  /** Tolerance and late window (PAYMENT_TOLERANCE_PERCENT, LATE_PAYMENT_WINDOW); default: none and a day. */
  policy?: PaymentPolicy | undefined;
  /** A GET re-reads the upstream list when the last sync is older than this (default 5 s). */
  syncMaxAgeMs?: number;
  log?: LogLine;
}

export function createOrderLedger(deps: LedgerDeps, options: LedgerOptions = {}) {
  const { store, clock, payments, outbox, fanout, metrics } = deps;
  const syncMaxAgeMs = options.syncMaxAgeMs ?? 5000;
  const policy = options.policy ?? defaultPaymentPolicy;
  const log = options.log ?? logger.warn;
  // Every open status stream syncs its order every few seconds: while the payments API is away that is a failure per
  // order per sync, said at once and then at growing intervals, and once more when syncs work again.
  const syncOutage = createOutageLog({
    subject: 'the payments API (status syncs)',
    prefix: '[ledger]',
    clock,
    warn: log,
  });
  const lock = createKeyedLock();
  const listeners = new Map<string, Set<Listener>>();
  const syncedAt = new Map<string, number>();
  const syncing = new Map<string, Promise<OrderRecord | undefined>>();
  /** Changes being applied, by order (the latest): a read for news waits for them. */
  const applying = new Map<string, Promise<unknown>>();
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
    fanout?.publish(record.id);
  };
  fanout?.onOrder((id) => {
    if (!listeners.has(id)) return;
    store.get<OrderRecord>('orders', id).then(
      (record) => record && notify(record),
      (error: Error) => log(`[ledger] reading an order another instance changed failed: ${error.message}`),
    );
  });

  /**
   * A webhook says a status (and the paid total), not who paid or how: when it moves an order, the upstream's
   * own order is read back (one list call) for the customer the payer typed on its page and each payment's
   * chain and transaction. Failing that, the webhook's facts alone.
   */
  async function readBack(id: string, facts: UpstreamFacts): Promise<UpstreamFacts> {
    const record = await store.get<OrderRecord>('orders', id);
    const finished = record && (isFinal(record.status) || record.status === 'paid_late');
    const moves =
      record &&
      (finished
        ? newMoney(record, facts) !== undefined
        : mapUpstreamStatus(facts.upstreamStatus) !== undefined && isProgress(record, facts.upstreamStatus));
    if (!record || !moves) return facts;
    try {
      const { orders } = await payments.listOrders({ searchId: record.upstreamId, limit: 10 });
      const found = orders.find((order) => sameUpstreamOrder(order.id, record.upstreamId));
      const upstream = found && factsOf(found);
      if (!upstream) return facts;
      return {
        ...facts,
        paid: facts.paid ?? upstream.paid ?? null,
        due: upstream.due ?? null,
        payments: upstream.payments,
        customer: upstream.customer,
      };
    } catch (error) {
      log(`[ledger] reading an order back from the upstream failed: ${(error as Error).message}`);
      return facts;
    }
  }

  /** Writes `next` (undefined: nothing changed) with the events the move from `record` causes. */
  async function save(tx: Store, record: OrderRecord, next: OrderRecord | undefined) {
    if (!next) return { record, changed: false, statusChanged: false };
    await outbox.record(orderEvents(record, next), next.updatedAt, tx);
    await tx.set('orders', record.id, next);
    return { record: next, changed: true, statusChanged: next.status !== record.status };
  }

  /** Runs a change of one order under its lock and in a transaction, then tells metrics and listeners. */
  function run(
    id: string,
    change: (
      tx: Store,
      told?: UpstreamFacts,
    ) => Promise<{ record: OrderRecord; changed: boolean; statusChanged: boolean } | undefined>,
    source: StatusChange['source'],
    prepare?: () => Promise<UpstreamFacts>,
  ) {
    return lock.run(id, async () => {
      const told = await prepare?.();
      const next = await store.transaction((tx) => change(tx, told));
      if (next?.statusChanged) metrics?.orderStatusChanged(next.record.status, source);
      if (next?.changed) publish(next.record);
      return next?.record;
    });
  }

  const ledger = {
    get: (id: string) => store.get<OrderRecord>('orders', id),

    async create(record: OrderRecord): Promise<void> {
      // The order and the event announcing it land together (see events/outbox.ts).
      await store.transaction(async (tx) => {
        await outbox.record(orderEvents(undefined, record), iso(), tx);
        await tx.set('orders', record.id, record);
      });
      metrics?.orderCreated();
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
        upstreamKey: upstreamKey(upstreamId),
      });
      return found;
    },

    /**
     * The order of ours a payments webhook is about: by our reference (its `externalId`; an order still being
     * created is waited for, as the upstream can be faster with its webhook than with its answer to our create
     * call), checked against the upstream id when both are given, else by the upstream id.
     */
    async locate(externalId: string | null, upstreamId: string | null): Promise<OrderRecord | undefined> {
      let record = externalId ? await ledger.afterCreation(externalId) : undefined;
      if (record && upstreamId && !sameUpstreamOrder(record.upstreamId, upstreamId)) record = undefined;
      if (!record && upstreamId) record = await ledger.findByUpstreamId(upstreamId);
      return record;
    },

    /**
     * Records what the upstream says if it is progress (never backwards); tells listeners when anything
     * visible changed. Returns the record as it now is.
     */
    apply(id: string, facts: UpstreamFacts, source: StatusChange['source']) {
      // The keyed lock orders this process's changes; the transaction's row lock those of other instances.
      // The read back (an upstream call) is made under the order's lock, before its transaction opens.
      const work = run(
        id,
        (tx, told) => ledger.applyIn(tx, id, told ?? facts, source),
        source,
        () => (source === 'webhook' ? readBack(id, facts) : Promise.resolve(facts)),
      );
      applying.set(id, work);
      const done = () => {
        if (applying.get(id) === work) applying.delete(id);
      };
      work.then(done, done);
      return work;
    },

    /** `apply`'s read-decide-write, inside the transaction `tx`: the status and its events land together. */
    async applyIn(tx: Store, id: string, facts: UpstreamFacts, source: StatusChange['source']) {
      const record = await tx.get<OrderRecord>('orders', id);
      if (!record) return undefined;
      const at = iso();
      const step = { at, now: clock.now(), source };
      // A finished order (or one paid late) the news brings money to: recorded, and paid late or flagged.
      if (isFinal(record.status) || record.status === 'paid_late') {
        return save(tx, record, lateMoney(record, facts, step, policy));
      }
      const mapped = mapUpstreamStatus(facts.upstreamStatus);
      const progress = mapped !== undefined && isProgress(record, facts.upstreamStatus);
      // Top-ups on an underpaid order change the paid amount without changing the status.
      const paidChanged =
        facts.paid != null &&
        (progress || facts.upstreamStatus.toUpperCase() === record.upstreamStatus.toUpperCase()) &&
        (facts.paid.amount !== record.paid?.amount || facts.paid.currency !== record.paid?.currency);
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
      if (facts.due) next.due = facts.due;
      // The order as it stands now: who paid and each payment, as the upstream tells them.
      if (facts.customer) next.customer = mergedCustomer(record.customer, facts.customer);
      if (facts.payments?.length) next.payments = facts.payments;
      // The payment policy: an underpayment within the tolerance is paid, one whose time to pay passed expired.
      const settled = settleUnderpaid(next, step, policy);
      return save(tx, record, progress || paidChanged || settled ? next : undefined);
    },

    /**
     * A merchant's action on one order (orders/merchant-actions.ts): `decide` gets the record as it stands (under
     * the order's lock, in a transaction) and returns the next one, or undefined to change nothing.
     */
    act(id: string, decide: (record: OrderRecord, at: string) => OrderRecord | undefined) {
      return run(
        id,
        async (tx) => {
          const record = await tx.get<OrderRecord>('orders', id);
          return record && save(tx, record, decide(record, iso()));
        },
        'merchant',
      );
    },

    /**
     * Re-reads the order from the upstream list when the last look is older than `maxAgeMs` (one call in
     * flight per order). The fallback for when webhooks do not arrive. Failures are logged, not thrown:
     * the caller still answers with what the ledger knows.
     */
    async sync(id: string, maxAgeMs = syncMaxAgeMs): Promise<OrderRecord | undefined> {
      const running = syncing.get(id);
      if (running) return running;
      // A change being applied (a webhook reading its order back) is waited for: what it brings is the news.
      await applying.get(id)?.catch(() => undefined);
      const record = await store.get<OrderRecord>('orders', id);
      if (!record || !stillWatched(record, clock.now(), policy)) return record;
      if (clock.now() - (syncedAt.get(id) ?? 0) < maxAgeMs) return record;
      const work = (async () => {
        try {
          syncedAt.set(id, clock.now());
          const { orders } = await payments.listOrders({ searchId: record.upstreamId, limit: 10 });
          syncOutage.recovered();
          const found = orders.find((order) => sameUpstreamOrder(order.id, record.upstreamId));
          const facts = found && factsOf(found);
          if (!facts) return record;
          return (await ledger.apply(id, facts, 'sync')) ?? record;
        } catch (error) {
          syncOutage.failed(`[ledger] status sync for an order failed: ${(error as Error).message}`);
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
