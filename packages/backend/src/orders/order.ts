/**
 * An order of ours: what the ledger keeps of it (`OrderRecord`), how it is first made from the upstream's answer
 * (`newOrderRecord`), what a shopper may read of it (`OrderView`, behind its status token), and that token.
 * A field the upstream adds and we pass on goes here (and in schemas/upstream-payments.ts, which parses it).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { UpstreamOrder } from '../schemas/upstream-payments.ts';
import { settlementSchema } from './settlement.ts';
import { mapUpstreamStatus, type OrderStatus, orderStatuses } from './status.ts';
import { factsOf, type PaymentFact } from './upstream-facts.ts';

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
  /** The merchant's own key-value notes from a checkout token (absent on orders made before they were kept). */
  metadata?: Record<string, string> | null;
}

export interface StatusChange {
  status: OrderStatus;
  upstreamStatus: string;
  at: string;
  /** `merchant`: an admin action (accept, ask for the rest); `policy`: the payment policy (tolerance, expiry). */
  source: 'created' | 'webhook' | 'sync' | 'return' | 'merchant';
}

/** The rest of an underpaid order the merchant asked for, and how the shopper pays it. */
export interface RestRequest {
  requestedBy: string;
  at: string;
  /** Exactly what is still missing, in the crypto paid. */
  remaining: { amount: string; currency: string };
  /** Until when it can be paid (ISO); null when the upstream gave the order no expiry. */
  payBy: string | null;
  /** The upstream's own means: the same order's payment page (which shows its address), as it takes top-ups. */
  payTo: { url?: string; address?: string; network?: string; memo?: string };
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
  /** What is due in the crypto the payer picked, as the upstream's order says (absent on older orders). */
  due?: { amount: string; currency: string } | null;
  /** Each payment as the upstream told it (amount, crypto, chain, transaction hash), when it did. */
  payments?: PaymentFact[];
  history: StatusChange[];
  /** Counted paid though short, within the payment tolerance (orders/payment-policy.ts). */
  tolerated?: { shortfall: string; tolerancePercent: string };
  /** Accepted as paid by the merchant (underpaid or paid late): who (the credential's name) and when. */
  accepted?: { by: string; at: string; from: OrderStatus };
  /** The rest the merchant asked the shopper to pay (routes/admin/order-actions.ts). */
  rest?: RestRequest;
  /** Money that reached the order after it was finished: recorded, never dropped, each flagged once. */
  afterFinal?: Array<{
    amount: string;
    currency: string;
    txHashes: string[];
    at: string;
    upstreamStatus: string;
  }>;
  createdAt: string;
  updatedAt: string;
  expiresAt: string | null;
}

export const orderStatusSchema = z.enum(orderStatuses).meta({ id: 'OrderStatus' });

/** A refund of the order as the shopper reads it (refunds/refund.ts keeps the record). */
export const orderRefundSchema = z
  .object({
    id: z.string().describe('`ref_…`'),
    status: z.enum(['requested', 'address_provided', 'sent', 'cancelled']),
    amount: z.string(),
    currency: z.string(),
    network: z.string(),
    claimUrl: z
      .string()
      .describe('The claim page: where the shopper gives the refund address, then follows it'),
    txHash: z.string().optional().describe('Once sent'),
  })
  .meta({ id: 'OrderRefund' });

/** What a shopper (holding the status token) reads of an order: `GET /api/orders/{id}` and its event stream. */
export const orderViewSchema = z
  .object({
    orderId: z.string(),
    status: orderStatusSchema,
    final: z.boolean().describe('paid, overpaid, expired, failed and cancelled are final'),
    upstreamStatus: z.string(),
    amount: z.string(),
    currency: z.string(),
    paid: z.object({ amount: z.string(), currency: z.string() }).optional(),
    returnUrl: z.string().optional(),
    settlement: settlementSchema.optional(),
    updatedAt: z.string(),
    refunds: z
      .array(orderRefundSchema)
      .optional()
      .describe('The refunds the merchant made of this order, oldest first (absent: none)'),
  })
  .meta({ id: 'OrderView' });
export type OrderView = z.output<typeof orderViewSchema>;

/** The upstream order an order of ours was made as: its id and payment page, and the order when it was sent. */
export interface MadeUpstream {
  id: string;
  link: string;
  order?: UpstreamOrder | undefined;
}

/** What the shopper's request decided about a new order. */
export interface OrderRequest {
  id: string;
  statusToken: string;
  product: OrderProduct;
  returnUrl: string | null;
  origin: string | null;
  customer: { name?: string | undefined; email?: string | undefined; country?: string | undefined };
}

/** The ledger entry of an order the upstream has just made (`at`: now, as an ISO string). */
export function newOrderRecord(request: OrderRequest, made: MadeUpstream, at: string): OrderRecord {
  const facts = made.order && factsOf(made.order);
  const upstreamStatus = facts?.upstreamStatus.toUpperCase() ?? 'PENDING_USER_CREATION';
  const status = mapUpstreamStatus(upstreamStatus) ?? 'pending';
  const { customer } = request;
  return {
    id: request.id,
    upstreamId: made.id,
    link: made.link,
    status,
    upstreamStatus,
    product: request.product,
    returnUrl: request.returnUrl,
    origin: request.origin,
    customer: {
      name: customer.name ?? null,
      email: customer.email ?? null,
      country: customer.country ?? null,
    },
    statusTokenHash: hashToken(request.statusToken).toString('hex'),
    paid: null,
    due: facts?.due ?? null,
    history: [{ status, upstreamStatus, at, source: 'created' }],
    createdAt: at,
    updatedAt: at,
    expiresAt: made.order?.expiresAt ?? null,
  };
}

export const newOrderId = () => `ord_${randomBytes(10).toString('hex')}`;
export const newStatusToken = () => `st_${randomBytes(24).toString('base64url')}`;

const hashToken = (token: string) => createHash('sha256').update(token).digest();

/** Constant-time check of a presented status token against the stored hash. */
export function statusTokenMatches(record: OrderRecord, token: string | undefined): boolean {
  if (!token) return false;
  const expected = Buffer.from(record.statusTokenHash, 'hex');
  const given = hashToken(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
