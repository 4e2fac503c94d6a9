/**
 * The events the merchant's own systems hear (`order.paid` → ship it): which status changes cause which event,
 * and what each carries: the order as it stands at that moment (the purchase, the customer, what was paid and
 * how, the status history), so a receiver can fulfil from the event alone. Pure: the outbox stores them (and
 * numbers each order's events in the order they happened), the delivery worker sends them.
 *
 * An event's id is derived from what happened (the order and the status it reached), never random, so the same
 * change seen twice (a webhook and a sync, a retry after a crash) is one event with one `webhook-id`.
 */
import { createHash } from 'node:crypto';
import { balanceOf, type OrderBalance } from '../orders/balance.ts';
import type { OrderRecord, RestRequest } from '../orders/order.ts';
import type { OrderStatus } from '../orders/status.ts';
import type { PaymentFact } from '../orders/upstream-facts.ts';

export const fulfilmentEventTypes = [
  'order.created',
  'order.paid',
  'order.overpaid',
  'order.underpaid',
  'order.expired',
  'order.failed',
  'order.paid_late',
  'order.cancelled',
  'order.rest_requested',
  'order.payment_after_final',
  'ramp.completed',
  'ramp.cancelled',
  'deposit.received',
  // A refund's steps (refunds/refund.ts), in the order's sequence.
  'refund.requested',
  'refund.address_provided',
  'refund.sent',
  'refund.cancelled',
] as const;
export type FulfilmentEventType = (typeof fulfilmentEventTypes)[number];

/** The event an endpoint's "send test event" sends (to that endpoint only; no endpoint subscribes to it). */
export const testEventType = 'webhook.test';

export interface TestEventData {
  endpointId: string;
  message: string;
}

export interface OrderEventData extends OrderBalance {
  orderId: string;
  upstreamOrderId: string;
  status: OrderStatus;
  /** The upstream's own status word (`PAYMENT_CONFIRMED_ACCURATE`). */
  upstreamStatus: string;
  /** The product id (PRODUCTS_FILE) or the merchant's reference from a checkout token. */
  reference: string | null;
  product: { id: string | null; name: string };
  /** What was bought: the catalog product or the checkout token's, with the merchant's reference and metadata. */
  purchase: {
    productId: string | null;
    name: string;
    description: string;
    price: string;
    currency: string;
    reference: string | null;
    metadata: Record<string, string>;
  };
  /**
   * Who pays, as the upstream knows them: what the shopper gave at checkout, and what the payer typed on the
   * payment page (read back from the upstream order when a status changes).
   */
  customer: { name: string | null; email: string | null; country: string | null };
  amount: string;
  currency: string;
  /** The total received, in the crypto paid. */
  paid: { amount: string; currency: string } | null;
  /** Each payment: amount, crypto, chain and transaction hash where the upstream gives them. */
  payments: PaymentFact[];
  /** Every status the order went through, oldest first. */
  history: Array<{ status: OrderStatus; upstreamStatus: string; at: string }>;
  /** Who accepted it as paid (the admin credential's name), when the merchant did; else null. */
  acceptedBy: string | null;
  /** The tolerance (percent) under which it counted as paid though short by `shortfall`; else null. */
  tolerance: string | null;
  /** The rest the merchant asked for: what, until when, how to pay it; else null. */
  rest: RestRequest | null;
  /** Money that reached the order after it was finished (each flagged by an `order.payment_after_final`). */
  afterFinal: NonNullable<OrderRecord['afterFinal']>;
  createdAt: string;
  updatedAt: string;
}

export interface RampEventData {
  rampOrderId: string;
  status: string;
  side: string | null;
  crypto: string | null;
  cryptoAmount: string | null;
  network: string | null;
  walletAddress: string | null;
  transactionId: string | null;
  /** The shop's customer id passed to the ramp, when it was. */
  customerId: string | null;
  amountEur: string | null;
  /** Every status the ramp order went through, oldest first. */
  history: Array<{ status: string; at: string }>;
  createdAt: string | null;
  updatedAt: string;
}

export interface DepositEventData {
  /** The shop's customer id the address belongs to (from the customer token). */
  customerId: string;
  chain: string;
  address: string;
  upstreamOrderId: string;
  crypto: string;
  amount: string;
  status: string;
  receivedAt: string;
}

/** What a refund event carries (refunds/refund.ts): the refund as it stands, and what the order had refunded. */
export interface RefundEventData {
  refundId: string;
  orderId: string;
  status: 'requested' | 'address_provided' | 'sent' | 'cancelled';
  amount: string;
  currency: string;
  network: string;
  of: 'order' | 'excess';
  reason: string | null;
  address: string | null;
  memo: string | null;
  txHash: string | null;
  /** The claim page to send the shopper (by e-mail, say) so they give the address. */
  claimUrl: string;
  /** Of the order, in the crypto paid: refunds not cancelled (`requested`) and those sent. */
  refunded: { requested: string; sent: string; currency: string };
  /** Every step, oldest first: who (an admin credential's name, or `shopper`) and when. */
  history: Array<{ status: string; at: string; by: string }>;
  createdAt: string;
  updatedAt: string;
}

/** The body delivered (Standard Webhooks' recommended `{ type, timestamp, data }`), plus its stable id. */
export interface FulfilmentEvent {
  id: string;
  type: FulfilmentEventType | typeof testEventType;
  timestamp: string;
  /**
   * The event's place among its order's events (1, 2, …, in the order they happened; set by the outbox as it
   * writes the event). A ramp order's or a deposit's single event is 1.
   */
  sequence?: number;
  data: OrderEventData | RampEventData | DepositEventData | RefundEventData | TestEventData;
}

/** The in-process hook an app that mounts the backend may give (`createCheckout(config, { onEvent })`). */
export type OnEvent = (event: FulfilmentEvent) => unknown;

const eventId = (...parts: string[]) =>
  `evt_${createHash('sha256').update(parts.join('\0')).digest('base64url').slice(0, 24)}`;

const orderTypeFor: Partial<Record<OrderStatus, FulfilmentEventType>> = {
  paid: 'order.paid',
  overpaid: 'order.overpaid',
  underpaid: 'order.underpaid',
  expired: 'order.expired',
  failed: 'order.failed',
  paid_late: 'order.paid_late',
  cancelled: 'order.cancelled',
};

function orderData(record: OrderRecord): OrderEventData {
  const { product } = record;
  return {
    orderId: record.id,
    upstreamOrderId: record.upstreamId,
    status: record.status,
    upstreamStatus: record.upstreamStatus,
    reference: product.reference ?? product.id,
    product: { id: product.id, name: product.name },
    purchase: {
      productId: product.id,
      name: product.name,
      description: product.description,
      price: product.price,
      currency: product.currency,
      reference: product.reference,
      metadata: product.metadata ?? {},
    },
    customer: record.customer ?? { name: null, email: null, country: null },
    amount: product.price,
    currency: product.currency,
    paid: record.paid,
    // What was due in the crypto paid, the rate, the shortfall or excess (orders/balance.ts).
    ...balanceOf(record),
    payments: record.payments ?? [],
    history: record.history.map(({ status, upstreamStatus, at }) => ({ status, upstreamStatus, at })),
    acceptedBy: record.accepted?.by ?? null,
    tolerance: record.tolerated?.tolerancePercent ?? null,
    rest: record.rest ?? null,
    afterFinal: record.afterFinal ?? [],
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/**
 * The events an order's move from `before` (absent: just created) to `after` causes: its new status's (one per
 * status: an order is paid once, whether by the upstream, the tolerance or the merchant's accept), the rest asked
 * for, and each payment after it was finished.
 */
export function orderEvents(before: OrderRecord | undefined, after: OrderRecord): FulfilmentEvent[] {
  const events: FulfilmentEvent[] = [];
  if (!before) {
    events.push({
      id: eventId(after.id, 'order.created'),
      type: 'order.created',
      timestamp: after.createdAt,
      data: orderData(after),
    });
  }
  const type = orderTypeFor[after.status];
  if (type && before?.status !== after.status) {
    events.push({ id: eventId(after.id, type), type, timestamp: after.updatedAt, data: orderData(after) });
  }
  if (after.rest && !before?.rest) {
    const rest = 'order.rest_requested';
    events.push({
      id: eventId(after.id, rest),
      type: rest,
      timestamp: after.updatedAt,
      data: orderData(after),
    });
  }
  // Each payment reaching a finished order is flagged once (its place in `afterFinal` names it).
  const flagged = after.afterFinal?.length ?? 0;
  for (let index = before?.afterFinal?.length ?? 0; index < flagged; index += 1) {
    const late = 'order.payment_after_final';
    events.push({
      id: eventId(after.id, late, String(index)),
      type: late,
      timestamp: after.updatedAt,
      data: orderData(after),
    });
  }
  return events;
}

/** What the ramp's callbacks tell of one of its orders (kept by orders/ramp-orders.ts as a RampOrderRecord). */
export interface RampOrderFacts {
  orderId: string;
  status: string;
  type: string | null;
  crypto: string | null;
  cryptoAmount: string | null;
  network: string | null;
  address: string | null;
  transactionId: string | null;
  externalCustomerId: string | null;
  amountEur: string | null;
  updatedAt: string;
}

const rampTypeFor: Record<string, FulfilmentEventType> = {
  order_completed: 'ramp.completed',
  order_broadcasted: 'ramp.completed',
  order_cancelled: 'ramp.cancelled',
};

/** The events a ramp order's move to `after` causes: completion (once, whether or not it is broadcast) or cancel. */
export function rampEvents(
  before: RampOrderFacts | undefined,
  after: RampOrderFacts & { history?: Array<{ status: string; at: string }>; createdAt?: string },
): FulfilmentEvent[] {
  const type = rampTypeFor[after.status];
  if (!type || (before && rampTypeFor[before.status] === type)) return [];
  const data: RampEventData = {
    rampOrderId: after.orderId,
    status: after.status,
    side: after.type,
    crypto: after.crypto,
    cryptoAmount: after.cryptoAmount,
    network: after.network,
    walletAddress: after.address,
    transactionId: after.transactionId,
    customerId: after.externalCustomerId,
    amountEur: after.amountEur,
    history: after.history ?? [{ status: after.status, at: after.updatedAt }],
    createdAt: after.createdAt ?? null,
    updatedAt: after.updatedAt,
  };
  return [{ id: eventId('ramp', after.orderId, type), type, timestamp: after.updatedAt, data }];
}

/** A payment into a customer's permanent address (the upstream reports it as an order of the route's). */
export function depositEvents(deposit: DepositEventData): FulfilmentEvent[] {
  return [
    {
      id: eventId('deposit', deposit.upstreamOrderId.replace(/^SP-/, '')),
      type: 'deposit.received',
      timestamp: deposit.receivedAt,
      data: deposit,
    },
  ];
}
