/**
 * How a payment order moves: the state machine the sandbox runs orders through (their shapes are in order.ts).
 * Every transition is a pure function of (record, context) returning the next record and the events it caused;
 * the ledger stores records and turns events into webhooks.
 *
 *   PENDING_USER_CREATION ──payer details──▶ PENDING_CURRENCY_SELECTION ──currency──▶ AWAITING_PAYMENT
 *   AWAITING_PAYMENT ──payment (payment-receipts.ts)──▶ PAYMENT_CONFIRMED_ACCURATE | _OVERPAID | _UNDERPAID (top-up until expiry)
 *   any unpaid state ──expiry / control──▶ EXPIRED | CANCELLED
 */
import { PAYMENTS_MAGIC } from '../magic.ts';
import {
  CHAIN_NAMES,
  CRYPTOS,
  codesOnChain,
  cryptoCurrency,
  DEFAULT_PAY_CURRENCY,
  fiatCurrency,
  fiatRate,
  fiatToCrypto,
  MEMO_CHAINS,
} from './currencies.ts';
import { addressFor, memoFor } from './ids.ts';
import {
  type DepositAddress,
  MERCHANT_CURRENCY,
  type Order,
  type OrderRecord,
  type PaymentRouteRef,
  type Purchase,
  type Quote,
  UNPAID,
} from './order.ts';
import {
  type Context,
  chainOf,
  isExpired,
  iso,
  moved,
  refuse,
  type Transition,
  TransitionError,
  update,
} from './transition.ts';

export interface CreateOrderInput {
  purchase: {
    name: string;
    description?: string | undefined;
    notes?: string | undefined;
    imageUrl?: string | undefined;
    price: string;
    currency: string;
  };
  /**
   * Already normalised: the documented `user*` names (docs/upstream.md#payment-orders), with any `customer*`
   * the merchant sent echoed too.
   */
  metadata: Record<string, string>;
  testMode: boolean;
}

export interface CreateOrderContext extends Context {
  merchantKey: string;
  merchantUuid: string;
  link: (orderId: string) => string;
  ttlMs: number;
  webhookUrl: string | undefined;
  /** Set when a deposit to a payment route opened the order. */
  route?: PaymentRouteRef;
}

function quoteFor(order: Pick<Order, 'purchase'>, code: string, ctx: Context): Quote {
  return {
    fromAmount: { amount: order.purchase.price, currency: order.purchase.currency },
    toAmount: {
      amount: fiatToCrypto(order.purchase.price, order.purchase.currency.symbol, code, ctx.now),
      currency: cryptoCurrency(code),
    },
    exchangeRateSnapshotId: ctx.random.uuid(),
    fees: [],
  };
}

/** Memo chains share one merchant address and tell orders apart by memo; the others get an address each. */
function depositAddressFor(record: OrderRecord, code: string, ctx: Context): DepositAddress {
  const chain = chainOf(code);
  const memo = MEMO_CHAINS.has(chain);
  const seed = memo ? `merchant:${record.merchantKey}` : `order:${record.order.id}`;
  return {
    id: ctx.random.uuid(),
    address: addressFor(chain, seed),
    memo: memo ? memoFor(`order:${record.order.id}`) : '',
    available: true,
    supportedCurrencies: codesOnChain(chain).map(cryptoCurrency),
  };
}

export function createOrder(input: CreateOrderInput, ctx: CreateOrderContext): Transition {
  const id = ctx.random.orderId();
  const fiat = input.purchase.currency;
  const createdAt = iso(ctx.now);
  const expires =
    input.purchase.name.toLowerCase() === PAYMENTS_MAGIC.expireImmediately ? ctx.now : ctx.now + ctx.ttlMs;
  const purchase: Purchase = {
    id: ctx.random.uuid(),
    name: input.purchase.name,
    description: input.purchase.description ?? '',
    notes: input.purchase.notes ?? '',
    imageUrl: input.purchase.imageUrl ?? '',
    price: input.purchase.price,
    currency: fiatCurrency(fiat),
    rateMerchantOverOrder: fiatRate(fiat, MERCHANT_CURRENCY),
  };
  const digits = purchase.currency.precision;
  const order: Order = {
    id,
    externalId: input.metadata['externalId'] ?? ctx.route?.externalId ?? null,
    link: ctx.link(id),
    userId: input.metadata['userId'] ?? null,
    merchant: { id: ctx.merchantUuid },
    initType: ctx.route ? 'PAYMENT_ROUTE' : 'STANDARD',
    quote: quoteFor({ purchase }, DEFAULT_PAY_CURRENCY, ctx),
    depositAddress: null,
    emailReceiptSent: false,
    emailReceiptSentAt: null,
    createdAt,
    expiresAt: iso(expires),
    status: 'PENDING_USER_CREATION',
    test: input.testMode,
    purchase,
    payments: [],
    paymentRoute: ctx.route ?? null,
    updates: [update(ctx, 'Order created', ctx.merchantUuid, { toStatus: 'PENDING_USER_CREATION' })],
    metadata: input.metadata,
    settlements: [],
    fees: [
      {
        id: ctx.random.uuid(),
        label: 'Platform fee',
        type: 'PLATFORM_COLLECT',
        amount: ((Number(purchase.price) * 1) / 100).toFixed(digits),
        currency: purchase.currency,
        needsCollection: false,
        createdAt,
      },
    ],
  };
  const payer: OrderRecord['payer'] = {};
  if (input.metadata['userName']) payer.name = input.metadata['userName'];
  if (input.metadata['userEmail']) payer.email = input.metadata['userEmail'];
  return {
    record: {
      order,
      merchantKey: ctx.merchantKey,
      payCode: DEFAULT_PAY_CURRENCY,
      payer,
      webhookUrl: ctx.webhookUrl,
    },
    events: [{ type: 'ORDER_CREATED' }],
  };
}

/** Lazy expiry: an unpaid order read after its expiresAt becomes EXPIRED then. */
export function settle(record: OrderRecord, ctx: Context): Transition {
  if (!UNPAID.has(record.order.status) || !isExpired(record.order, ctx.now)) return { record, events: [] };
  return {
    record: { ...record, order: moved(record, 'EXPIRED', ctx, 'Order expired', 'SYSTEM') },
    events: [],
  };
}

/** The payer opened the page: with name and email already in the metadata the details step is skipped. */
export function openPage(record: OrderRecord, ctx: Context): Transition {
  if (record.order.status !== 'PENDING_USER_CREATION' || !record.payer.name || !record.payer.email) {
    return { record, events: [] };
  }
  const order = moved(
    record,
    'PENDING_CURRENCY_SELECTION',
    ctx,
    'Customer details taken from metadata',
    'SYSTEM',
  );
  return { record: { ...record, order }, events: [] };
}

export function provideCustomer(
  record: OrderRecord,
  payer: { name: string; email: string },
  ctx: Context,
): Transition {
  if (record.order.status !== 'PENDING_USER_CREATION') refuse(record, 'take customer details');
  const moving = moved(record, 'PENDING_CURRENCY_SELECTION', ctx, 'Customer details provided', 'CUSTOMER');
  // What the payer typed becomes the order's customer, as the real page does: the merchant reads it back.
  const order = { ...moving, metadata: { ...moving.metadata, userName: payer.name, userEmail: payer.email } };
  return { record: { ...record, order, payer }, events: [] };
}

/** Picks (or, while nothing is paid, changes) the crypto: a fresh quote and a deposit address on its chain. */
export function selectCurrency(record: OrderRecord, code: string, ctx: Context): Transition {
  const { status, payments } = record.order;
  const changing = status === 'AWAITING_PAYMENT' && payments.length === 0;
  if (status !== 'PENDING_CURRENCY_SELECTION' && !changing) refuse(record, 'select a currency');
  const row = CRYPTOS[code];
  if (!row) throw new TransitionError(`Unsupported currency ${code}`);
  const next: OrderRecord = { ...record, payCode: code };
  const base = moved(
    record,
    'AWAITING_PAYMENT',
    ctx,
    `Currency selected: ${row.symbol} on ${CHAIN_NAMES[row.chain]}`,
    'CUSTOMER',
  );
  const order: Order = {
    ...base,
    quote: quoteFor(record.order, code, ctx),
    depositAddress: depositAddressFor(next, code, ctx),
  };
  return { record: { ...next, order }, events: [] };
}

export function expire(record: OrderRecord, ctx: Context): Transition {
  if (!UNPAID.has(record.order.status)) refuse(record, 'expire');
  const order = moved(record, 'EXPIRED', ctx, 'Order expired', 'SYSTEM');
  return {
    record: {
      ...record,
      order: { ...order, expiresAt: iso(Math.min(ctx.now, Date.parse(order.expiresAt))) },
    },
    events: [],
  };
}

export function cancel(record: OrderRecord, ctx: Context): Transition {
  if (!UNPAID.has(record.order.status)) refuse(record, 'cancel');
  const order = moved(record, 'CANCELLED', ctx, 'Order cancelled', 'MERCHANT');
  return { record: { ...record, order }, events: [] };
}
