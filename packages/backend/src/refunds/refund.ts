/**
 * A refund of ours: what the store keeps of it (`RefundRecord`, collection `refunds`), its claim token, how the
 * shopper and the admin read it, and the events each of its steps causes. The upstream pays refunds only from its
 * own dashboard, in the crypto paid (docs/upstream.md), so a refund here is a record the merchant and the shopper
 * move along: requested (merchant) → address_provided (shopper, through the claim link) → sent (merchant, with
 * the transaction hash), or cancelled (merchant, any time before sent).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { FulfilmentEvent, RefundEventData } from '../events/fulfilment-events.ts';
import { orderRefundSchema } from '../orders/order.ts';
import type { RefundNetwork } from './addresses.ts';

export const refundStatuses = ['requested', 'address_provided', 'sent', 'cancelled'] as const;
export type RefundStatus = (typeof refundStatuses)[number];

/** Who moved a refund: an admin credential's name, or the shopper through the claim link. */
export interface RefundStep {
  status: RefundStatus;
  at: string;
  by: string;
}

export interface RefundRecord {
  /** `ref_…` */
  id: string;
  orderId: string;
  status: RefundStatus;
  /** In the crypto paid (the upstream refunds only in it). */
  amount: string;
  currency: string;
  network: RefundNetwork;
  /** What the merchant refunds: part or all of the order, or what arrived beyond what was due. */
  of: 'order' | 'excess';
  /** The merchant's reason, shown to the shopper on the claim page. */
  reason: string | null;
  address: string | null;
  memo: string | null;
  txHash: string | null;
  /** The claim link's secret (`refundId.secret` is the token); compared in constant time. */
  claimSecret: string;
  history: RefundStep[];
  createdAt: string;
  updatedAt: string;
}

export const newRefundId = () => `ref_${randomBytes(10).toString('hex')}`;
export const newClaimSecret = () => randomBytes(24).toString('base64url');

export const claimTokenOf = (refund: Pick<RefundRecord, 'id' | 'claimSecret'>) =>
  `${refund.id}.${refund.claimSecret}`;

/** The claim page of a refund, at the backend's public address. */
export const claimUrlOf = (publicUrl: string, refund: Pick<RefundRecord, 'id' | 'claimSecret'>) =>
  `${publicUrl.replace(/\/$/, '')}/refunds/${claimTokenOf(refund)}`;

/** The refund id a claim token names, or undefined when it is not a claim token's shape. */
export function refundIdOfToken(token: string): string | undefined {
  const match = /^(ref_[0-9a-f]{20})\.([A-Za-z0-9_-]{32})$/.exec(token);
  return match?.[1];
}

export function claimTokenMatches(refund: RefundRecord, token: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(claimTokenOf(refund)), digest(token));
}

/** Whether the refund still counts against what may be refunded (all but cancelled ones). */
export const countsAgainstPaid = (refund: RefundRecord) => refund.status !== 'cancelled';

/** A refund as the shopper's order view shows it (the contract's `refunds[]`). */
export const refundView = (publicUrl: string, refund: RefundRecord): z.output<typeof orderRefundSchema> => ({
  id: refund.id,
  status: refund.status,
  amount: refund.amount,
  currency: refund.currency,
  network: refund.network,
  claimUrl: claimUrlOf(publicUrl, refund),
  ...(refund.txHash ? { txHash: refund.txHash } : {}),
});

export const adminRefundSchema = orderRefundSchema
  .extend({
    orderId: z.string(),
    of: z.enum(['order', 'excess']),
    reason: z.string().nullable(),
    address: z.string().nullable(),
    memo: z.string().nullable(),
    txHash: z.string().nullable(),
    history: z.array(z.object({ status: z.enum(refundStatuses), at: z.string(), by: z.string() })),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'AdminRefund' });
export type AdminRefund = z.output<typeof adminRefundSchema>;

/** What the merchant's view of a refund and its events both say of it, as the record holds it. */
const refundFacts = (refund: RefundRecord) => ({
  orderId: refund.orderId,
  status: refund.status,
  amount: refund.amount,
  currency: refund.currency,
  network: refund.network,
  of: refund.of,
  reason: refund.reason,
  address: refund.address,
  memo: refund.memo,
  txHash: refund.txHash,
  history: refund.history,
  createdAt: refund.createdAt,
  updatedAt: refund.updatedAt,
});

export const adminRefund = (publicUrl: string, refund: RefundRecord): AdminRefund => ({
  id: refund.id,
  ...refundFacts(refund),
  claimUrl: claimUrlOf(publicUrl, refund),
});

export type RefundEventType = `refund.${RefundStatus}`;

/** The event a refund's move to its current status causes (its id stable: the same step seen twice is one event). */
export function refundEvent(
  refund: RefundRecord,
  claimUrl: string,
  refunded: RefundEventData['refunded'],
): FulfilmentEvent {
  const type = `refund.${refund.status}` as RefundEventType;
  const id = `evt_${createHash('sha256').update(`${refund.id}\0${type}`).digest('base64url').slice(0, 24)}`;
  const data: RefundEventData = {
    refundId: refund.id,
    ...refundFacts(refund),
    claimUrl,
    refunded,
  };
  return { id, type, timestamp: refund.updatedAt, data };
}
