/**
 * The refunds' steps, each one store transaction with its event written in it (the outbox, in the order's
 * sequence): `request` (the merchant), `provideAddress` (the shopper, by the claim token), `markSent` and
 * `cancel` (the merchant). The guarantee: what is refunded (every refund not cancelled) never exceeds what the
 * order was paid. The order's row is read first in each transaction (PostgreSQL `FOR UPDATE`; SQLite has one
 * writer), so requests for one order run one after the other across instances, and a keyed lock per order does
 * the same within this process (the memory store's transactions do not serialise).
 */
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import type { Outbox } from '../events/outbox.ts';
import { createKeyedLock } from '../keyed-lock.ts';
import { decimal, decimalOrUndefined, digitsOf, plainString, sum } from '../money.ts';
import { balanceOf } from '../orders/balance.ts';
import type { OrderRecord } from '../orders/order.ts';
import type { Store } from '../store/store.ts';
import {
  checkRefundAddress,
  memoNames,
  networkNamed,
  type RefundNetwork,
  refundNetworks,
} from './addresses.ts';
import {
  claimTokenMatches,
  claimUrlOf,
  countsAgainstPaid,
  newClaimSecret,
  type RefundRecord,
  type RefundStatus,
  refundEvent,
  refundIdOfToken,
} from './refund.ts';

export interface RefundRequest {
  /** The refund's id, fixed by the request's Idempotency-Key (the same key makes the same refund). */
  id: string;
  orderId: string;
  of: 'order' | 'excess';
  /** Absent: all that may still be refunded (of the order), or the whole excess. */
  amount?: string | undefined;
  reason?: string | undefined;
  /** The admin credential's name. */
  by: string;
}

/** What the order had refunded, in the crypto paid. */
export interface RefundedTotal {
  requested: string;
  sent: string;
  currency: string;
}

/** What of the order's refunds counts: those not cancelled, and those sent. */
export function refundedTotal(refunds: readonly RefundRecord[], currency: string): RefundedTotal {
  const live = refunds.filter(countsAgainstPaid);
  return {
    requested: plainString(sum(live.map((refund) => refund.amount))),
    sent: plainString(sum(live.filter((refund) => refund.status === 'sent').map((refund) => refund.amount))),
    currency,
  };
}

/** The network the order was paid on: its payments' chain, or the crypto code's. */
function paidNetwork(order: OrderRecord): RefundNetwork | undefined {
  const payment = (order.payments ?? []).find((fact) => fact.network || fact.crypto);
  return networkNamed(payment?.network, payment?.crypto ?? order.paid?.currency);
}

export function createRefunds(deps: { store: Store; outbox: Outbox; clock: Clock; publicUrl: string }) {
  const { store, outbox, clock, publicUrl } = deps;
  const lock = createKeyedLock();
  const nowIso = () => new Date(clock.now()).toISOString();

  /** Runs `work` on the order's refunds under its lock and in one transaction that holds the order's row. */
  function onOrder<T>(
    orderId: string,
    work: (tx: Store, order: OrderRecord, refunds: RefundRecord[]) => Promise<T>,
  ): Promise<T> {
    return lock.run(orderId, () =>
      store.transaction(async (tx) => {
        const order = await tx.get<OrderRecord>('orders', orderId);
        if (!order) throw new AppError('NOT_FOUND', 'No order of this backend has that id.');
        const refunds = await tx.find<RefundRecord>('refunds', { orderId });
        return work(tx, order, refunds);
      }),
    );
  }

  /** Writes the refund and the event of its new status in `tx`. */
  async function write(tx: Store, refund: RefundRecord, refunds: readonly RefundRecord[]): Promise<void> {
    await tx.set('refunds', refund.id, refund);
    const all = [...refunds.filter((other) => other.id !== refund.id), refund];
    const event = refundEvent(refund, claimUrlOf(publicUrl, refund), refundedTotal(all, refund.currency));
    await outbox.record([event], refund.updatedAt, tx);
  }

  /** A refund's move to `status` (`from` lists where it may come from), or the reason it cannot. */
  async function move(
    id: string,
    status: RefundStatus,
    from: readonly RefundStatus[],
    by: string,
    change: (refund: RefundRecord) => void,
  ): Promise<RefundRecord> {
    const found = await store.get<RefundRecord>('refunds', id);
    if (!found) throw new AppError('NOT_FOUND', 'No refund has that id.');
    return onOrder(found.orderId, async (tx, _order, refunds) => {
      const refund = refunds.find((other) => other.id === id);
      if (!refund) throw new AppError('NOT_FOUND', 'No refund has that id.');
      if (refund.status === status) return refund;
      if (!from.includes(refund.status))
        throw new AppError(
          'REFUND_STATE',
          `This refund is ${refund.status.replace('_', ' ')}: it cannot become ${status.replace('_', ' ')}.`,
          {
            details: { status: refund.status },
          },
        );
      const at = nowIso();
      const next: RefundRecord = {
        ...refund,
        status,
        updatedAt: at,
        history: [...refund.history, { status, at, by }],
      };
      change(next);
      await write(tx, next, refunds);
      return next;
    });
  }

  return {
    /** A new refund of the order (or the same one again for the same id), within what may still be refunded. */
    request(input: RefundRequest): Promise<RefundRecord> {
      return onOrder(input.orderId, async (tx, order, refunds) => {
        const again = refunds.find((refund) => refund.id === input.id);
        if (again) return again;
        const paid = decimalOrUndefined(order.paid?.amount);
        const currency = order.paid?.currency;
        if (!paid || !currency || paid.lte(0))
          throw new AppError(
            'REFUND_NOT_ALLOWED',
            'Nothing was paid to this order: there is nothing to refund.',
          );
        const network = paidNetwork(order);
        if (!network)
          throw new AppError(
            'REFUND_NOT_ALLOWED',
            'The network this order was paid on is not one refunds can be sent on.',
            {
              details: { known: Object.keys(refundNetworks) },
            },
          );
        const refunded = sum(refunds.filter(countsAgainstPaid).map((refund) => refund.amount));
        const left = paid.minus(refunded);
        let cap = left;
        if (input.of === 'excess') {
          const excess = decimalOrUndefined(balanceOf(order).excess);
          if (!excess || excess.lte(0))
            throw new AppError(
              'REFUND_NOT_ALLOWED',
              'This order was not paid more than was due: there is no excess.',
            );
          const excessRefunded = sum(
            refunds
              .filter((refund) => countsAgainstPaid(refund) && refund.of === 'excess')
              .map((r) => r.amount),
          );
          cap = excess.minus(excessRefunded).lt(left) ? excess.minus(excessRefunded) : left;
        }
        const amount = input.amount === undefined ? cap : decimal(input.amount);
        const digits = digitsOf(currency, 'crypto');
        if (!amount.round(digits, 0).eq(amount))
          throw new AppError(
            'VALIDATION_FAILED',
            `${currency} has ${digits} decimals: ${input.amount} cannot be sent exactly.`,
            {
              issues: [{ path: 'amount', message: `at most ${digits} decimals in ${currency}` }],
            },
          );
        if (amount.lte(0) || amount.gt(cap))
          throw new AppError(
            'REFUND_TOO_LARGE',
            `At most ${plainString(cap.lt(0) ? decimal(0) : cap)} ${currency} can still be refunded${input.of === 'excess' ? ' of the excess' : ''} (paid ${plainString(paid)}, refunded ${plainString(refunded)}).`,
            {
              details: {
                available: plainString(cap.lt(0) ? decimal(0) : cap),
                paid: plainString(paid),
                refunded: plainString(refunded),
                currency,
              },
            },
          );
        const at = nowIso();
        const refund: RefundRecord = {
          id: input.id,
          orderId: order.id,
          status: 'requested',
          amount: plainString(amount),
          currency,
          network,
          of: input.of,
          reason: input.reason ?? null,
          address: null,
          memo: null,
          txHash: null,
          claimSecret: newClaimSecret(),
          history: [{ status: 'requested', at, by: input.by }],
          createdAt: at,
          updatedAt: at,
        };
        await write(tx, refund, refunds);
        return refund;
      });
    },

    /** The refund a claim token opens, or undefined (unknown, or not its token). */
    async byToken(token: string): Promise<RefundRecord | undefined> {
      const id = refundIdOfToken(token);
      const refund = id ? await store.get<RefundRecord>('refunds', id) : undefined;
      return refund && claimTokenMatches(refund, token) ? refund : undefined;
    },

    get: (id: string) => store.get<RefundRecord>('refunds', id),

    ofOrder: (orderId: string) => store.find<RefundRecord>('refunds', { orderId }),

    list: (limit: number) => store.find<RefundRecord>('refunds', {}, { newestFirst: true, limit }),

    /**
     * The shopper's refund address (and memo, where the network takes one), checked for the network; again
     * while the merchant has not sent it (a typo can be corrected). Refused with the reason.
     */
    async provideAddress(refund: RefundRecord, address: string, memo?: string): Promise<RefundRecord> {
      const checked = checkRefundAddress(refund.network, address, memo);
      if (!checked.ok) {
        const what = checked.field === 'memo' ? (memoNames[refund.network] ?? 'memo') : 'address';
        throw new AppError('ADDRESS_INVALID', `${checked.reason}.`, {
          issues: [{ path: checked.field, message: checked.reason }],
          details: { field: checked.field, network: refund.network, what },
        });
      }
      const same =
        refund.status === 'address_provided' &&
        refund.address === checked.address &&
        refund.memo === checked.memo;
      if (same) return refund;
      if (refund.status === 'address_provided') {
        // A corrected address: the record changes, the step (and its event) was already told once.
        return onOrder(refund.orderId, async (tx, _order, refunds) => {
          const current = refunds.find((other) => other.id === refund.id);
          if (current?.status !== 'address_provided')
            throw new AppError('REFUND_STATE', 'This refund can no longer be changed.');
          const next = { ...current, address: checked.address, memo: checked.memo, updatedAt: nowIso() };
          await tx.set('refunds', next.id, next);
          return next;
        });
      }
      return move(refund.id, 'address_provided', ['requested'], 'shopper', (next) => {
        next.address = checked.address;
        next.memo = checked.memo;
      });
    },

    /** The merchant paid it out (in the upstream's dashboard): the transaction hash is recorded. */
    markSent: (id: string, txHash: string, by: string) =>
      move(id, 'sent', ['address_provided'], by, (next) => {
        next.txHash = txHash;
      }),

    cancel: (id: string, by: string) =>
      move(id, 'cancelled', ['requested', 'address_provided'], by, () => undefined),
  };
}

export type Refunds = ReturnType<typeof createRefunds>;
