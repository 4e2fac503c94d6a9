/**
 * How a payment order moves: the state machine the sandbox runs orders through (their shapes are in order.ts).
 * Every transition is a pure function of (record, context) returning the next record and the events it caused;
 * the ledger stores records and turns events into webhooks.
 *
 *   PENDING_USER_CREATION ──payer details──▶ PENDING_CURRENCY_SELECTION ──currency──▶ AWAITING_PAYMENT
 *   AWAITING_PAYMENT ──payment──▶ PAYMENT_CONFIRMED_ACCURATE | _OVERPAID | _UNDERPAID (top-up until expiry)
 *   any unpaid state ──expiry / control──▶ EXPIRED | CANCELLED
 */
import { PAYMENTS_MAGIC } from '../magic.ts';
import {
  CHAIN_NAMES,
  type Chain,
  CRYPTOS,
  codesOnChain,
  cryptoCurrency,
  cryptoPrice,
  DEFAULT_PAY_CURRENCY,
  fiatCurrency,
  fiatRate,
  fiatToCrypto,
  MEMO_CHAINS,
} from './currencies.ts';
import { addressFor, memoFor, type RandomSource, txHashFor } from './ids.ts';
import {
  type DepositAddress,
  fromUnits,
  MERCHANT_CURRENCY,
  type Order,
  type OrderRecord,
  type OrderStatus,
  PAYABLE,
  type Payment,
  type PaymentRouteRef,
  type Purchase,
  type Quote,
  toUnits,
  UNPAID,
  type Update,
} from './order.ts';

export type OrderEvent =
  | { type: 'ORDER_CREATED' }
  | { type: 'PAYMENT_RECEIVED'; payment: Payment }
  | { type: 'ORDER_COMPLETED'; payment: Payment };

export interface Transition {
  record: OrderRecord;
  events: OrderEvent[];
}

export interface Context {
  now: number;
  random: RandomSource;
}

/** A transition the order's current state does not allow: the API answers 409 with this message. */
export class TransitionError extends Error {
  override readonly name = 'TransitionError';
}

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

const iso = (ms: number) => new Date(ms).toISOString();

function update(ctx: Context, message: string, authorId: string, metadata: Record<string, string>): Update {
  return { id: ctx.random.uuid(), message, entityType: 'ORDER', authorId, metadata, timestamp: iso(ctx.now) };
}

function moved(record: OrderRecord, to: OrderStatus, ctx: Context, message: string, author: string): Order {
  const from = record.order.status;
  return {
    ...record.order,
    status: to,
    updates: [...record.order.updates, update(ctx, message, author, { fromStatus: from, toStatus: to })],
  };
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

function chainOf(code: string): Chain {
  const row = CRYPTOS[code];
  if (!row) throw new TransitionError(`Unsupported currency ${code}`);
  return row.chain;
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

const isExpired = (order: Order, now: number) => now >= Date.parse(order.expiresAt);

/** Lazy expiry: an unpaid order read after its expiresAt becomes EXPIRED then. */
export function settle(record: OrderRecord, ctx: Context): Transition {
  if (!UNPAID.has(record.order.status) || !isExpired(record.order, ctx.now)) return { record, events: [] };
  return {
    record: { ...record, order: moved(record, 'EXPIRED', ctx, 'Order expired', 'SYSTEM') },
    events: [],
  };
}

function refuse(record: OrderRecord, action: string): never {
  throw new TransitionError(`Order ${record.order.id} is ${record.order.status}; cannot ${action}`);
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
  const order = moved(record, 'PENDING_CURRENCY_SELECTION', ctx, 'Customer details provided', 'CUSTOMER');
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

export type PaymentKind = 'exact' | 'underpaid' | 'overpaid';

/**
 * An on-chain payment to the order's deposit address. `kind` sizes it against what is still due (exact pays the
 * rest, underpaid about half of it, overpaid about 10% more); `amount` overrides the size.
 */
export function receivePayment(
  record: OrderRecord,
  payment: { kind: PaymentKind; amount?: string | undefined },
  ctx: Context,
): Transition {
  const { order } = record;
  if (!PAYABLE.has(order.status) || !order.depositAddress) refuse(record, 'receive a payment');
  if (isExpired(order, ctx.now)) refuse(record, 'receive a payment after it expired');
  const currency = order.quote.toAmount.currency;
  const precision = currency.precision;
  const due = toUnits(order.quote.toAmount.amount, precision);
  const received = order.payments.reduce((sum, p) => sum + toUnits(p.receivedAmount, precision), 0n);
  const remaining = due - received;
  const kind =
    record.payer.email?.toLowerCase() === PAYMENTS_MAGIC.underpaidEmail ? 'underpaid' : payment.kind;
  let units: bigint;
  if (payment.amount !== undefined) units = toUnits(payment.amount, precision);
  else if (kind === 'exact') units = remaining;
  else if (kind === 'underpaid') units = remaining / 2n;
  else units = remaining + (due / 10n > 0n ? due / 10n : 1n);
  if (units <= 0n) throw new TransitionError('A payment must be a positive amount');

  const total = received + units;
  const status: OrderStatus =
    total === due
      ? 'PAYMENT_CONFIRMED_ACCURATE'
      : total > due
        ? 'PAYMENT_CONFIRMED_OVERPAID'
        : 'PAYMENT_CONFIRMED_UNDERPAID';
  const chain = chainOf(record.payCode);
  const seed = ctx.random.seed();
  const at = iso(ctx.now);
  const paid: Payment = {
    id: ctx.random.uuid(),
    orderId: order.id,
    receivedAmount: fromUnits(units, precision),
    receivedCurrency: currency,
    txHash: txHashFor(chain, seed),
    confirmedAt: at,
    status: 'CONFIRMED',
    createdAt: at,
    depositAddress: order.depositAddress,
    sourceAddress: addressFor(chain, `source:${seed}`),
    custodyTxId: ctx.random.uuid(),
  };
  const base = moved(
    record,
    status,
    ctx,
    `Payment confirmed (${status.slice('PAYMENT_CONFIRMED_'.length).toLowerCase()})`,
    'SYSTEM',
  );
  const note: Update = {
    ...update(ctx, `Received ${paid.receivedAmount} ${currency.symbol}`, 'SYSTEM', {
      paymentId: paid.id,
      txHash: paid.txHash,
    }),
    entityType: 'PAYMENT',
  };
  const next: Order = { ...base, payments: [...order.payments, paid], updates: [...base.updates, note] };
  // Webhooks as docs/upstream.md#payments-webhooks documents them: ORDER_COMPLETED for an accurate payment,
  // PAYMENT_RECEIVED for under- and overpayments (an overpaid order is paid, yet the documented completion
  // event is not sent).
  const event: OrderEvent =
    status === 'PAYMENT_CONFIRMED_ACCURATE'
      ? { type: 'ORDER_COMPLETED', payment: paid }
      : { type: 'PAYMENT_RECEIVED', payment: paid };
  return { record: { ...record, order: next }, events: [event] };
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

/**
 * Crypto arrived at a payment route: the sandbox opens a PAYMENT_ROUTE order for it, priced in the merchant's
 * currency at the table rate, already paid in full (a route has no price to miss), and reports ORDER_COMPLETED.
 */
export function receiveRouteDeposit(
  deposit: { route: PaymentRouteRef; code: string; amount: string; email?: string; name?: string },
  ctx: CreateOrderContext,
): Transition {
  const row = CRYPTOS[deposit.code];
  if (!row) throw new TransitionError(`Unsupported currency ${deposit.code}`);
  const price = (Number(deposit.amount) * cryptoPrice(deposit.code, MERCHANT_CURRENCY, ctx.now)).toFixed(2);
  const metadata: Record<string, string> = { externalId: deposit.route.externalId };
  if (deposit.email) metadata['userEmail'] = deposit.email;
  if (deposit.name) metadata['userName'] = deposit.name;
  const created = createOrder(
    {
      purchase: {
        name: `Deposit to payment route ${deposit.route.externalId}`,
        price,
        currency: MERCHANT_CURRENCY,
      },
      metadata,
      testMode: false,
    },
    { ...ctx, route: deposit.route },
  ).record;
  const currency = cryptoCurrency(deposit.code);
  const awaiting: OrderRecord = {
    ...created,
    payCode: deposit.code,
    order: {
      ...moved(created, 'AWAITING_PAYMENT', ctx, 'Deposit detected on payment route', 'SYSTEM'),
      quote: { ...created.order.quote, toAmount: { amount: deposit.amount, currency } },
      depositAddress: {
        id: deposit.route.id,
        address: deposit.route.address,
        memo: deposit.route.memo,
        available: true,
        supportedCurrencies: codesOnChain(row.chain).map(cryptoCurrency),
      },
    },
  };
  return receivePayment(awaiting, { kind: 'exact', amount: deposit.amount }, ctx);
}
