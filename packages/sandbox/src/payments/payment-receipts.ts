/**
 * Money arriving at a payment order: an on-chain payment to its deposit address (exact, under, over, top-ups), and a
 * deposit to a payment route, which the sandbox opens as an order already paid. Pure, like every transition.
 */
import { PAYMENTS_MAGIC } from '../magic.ts';
import { CRYPTOS, codesOnChain, cryptoCurrency, cryptoPrice } from './currencies.ts';
import { addressFor, txHashFor } from './ids.ts';
import {
  fromUnits,
  MERCHANT_CURRENCY,
  type Order,
  type OrderRecord,
  type OrderStatus,
  PAYABLE,
  type Payment,
  type PaymentRouteRef,
  toUnits,
  UNPAID,
  type Update,
} from './order.ts';
import { type CreateOrderContext, createOrder } from './order-transitions.ts';
import {
  type Context,
  chainOf,
  isExpired,
  iso,
  moved,
  type OrderEvent,
  refuse,
  type Transition,
  TransitionError,
  update,
} from './transition.ts';

export type PaymentKind = 'exact' | 'underpaid' | 'overpaid';

/**
 * What the upstream does with a payment to an order that is expired or already paid (the settings'
 * `latePayments`; docs/upstream.md#payments-after-expiry): not unknown to it, but unreported (refused here),
 * recorded on the order with its status unchanged, or taken as if the order were open (its status moves on).
 */
export type LatePayments = 'unreported' | 'recorded' | 'reopened';

/** Whether an order whose status or expiry no longer takes payments. */
const finished = (order: Order, now: number) => !PAYABLE.has(order.status) || isExpired(order, now);

/**
 * An on-chain payment to the order's deposit address. `kind` sizes it against what is still due (exact pays the
 * rest, underpaid about half of it, overpaid about 10% more); `amount` overrides the size.
 */
export function receivePayment(
  record: OrderRecord,
  payment: { kind: PaymentKind; amount?: string | undefined; late?: LatePayments | undefined },
  ctx: Context,
): Transition {
  const { order } = record;
  const late = payment.late ?? 'unreported';
  const afterward = finished(order, ctx.now);
  if (!order.depositAddress || (afterward && late === 'unreported' && !PAYABLE.has(order.status)))
    refuse(record, 'receive a payment');
  if (afterward && late === 'unreported') refuse(record, 'receive a payment after it expired');
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
  // Recorded late: the order keeps its status (an unpaid one past its expiry is expired).
  const kept: OrderStatus = UNPAID.has(order.status) ? 'EXPIRED' : order.status;
  const status: OrderStatus =
    afterward && late === 'recorded'
      ? kept
      : total === due
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
    status === 'PAYMENT_CONFIRMED_ACCURATE' && !(afterward && late === 'recorded')
      ? { type: 'ORDER_COMPLETED', payment: paid }
      : { type: 'PAYMENT_RECEIVED', payment: paid };
  return { record: { ...record, order: next }, events: [event] };
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
