/**
 * The payment Order as the payments API returns it (docs/upstream.md#payment-orders), its statuses, and the
 * record the sandbox keeps around it. Shapes and the arithmetic of what is due only; how an order moves is
 * order-transitions.ts.
 */
import type { Currency } from './currencies.ts';

export const ORDER_STATUSES = [
  'PENDING_USER_CREATION',
  'PENDING_CURRENCY_SELECTION',
  'AWAITING_PAYMENT',
  'PAYMENT_CONFIRMED_UNDERPAID',
  'PAYMENT_CONFIRMED_OVERPAID',
  'PAYMENT_CONFIRMED_ACCURATE',
  'EXPIRED',
  'CANCELLED',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const INIT_TYPES = ['STANDARD', 'INVOICE', 'PAYMENT_ROUTE'] as const;
export type InitType = (typeof INIT_TYPES)[number];

/** States in which nothing has been paid yet: these expire and can be cancelled. */
export const UNPAID: ReadonlySet<OrderStatus> = new Set([
  'PENDING_USER_CREATION',
  'PENDING_CURRENCY_SELECTION',
  'AWAITING_PAYMENT',
]);
/** States the payer can still pay in (a top-up after an underpayment included). */
export const PAYABLE: ReadonlySet<OrderStatus> = new Set(['AWAITING_PAYMENT', 'PAYMENT_CONFIRMED_UNDERPAID']);
/** Paid in full: the page sends the payer back to the merchant. */
export const PAID: ReadonlySet<OrderStatus> = new Set([
  'PAYMENT_CONFIRMED_ACCURATE',
  'PAYMENT_CONFIRMED_OVERPAID',
]);

export interface Money {
  amount: string;
  currency: Currency;
}

export interface Quote {
  fromAmount: Money;
  toAmount: Money;
  exchangeRateSnapshotId: string;
  fees: Array<{
    id: string;
    type: string;
    label: string;
    amount: string;
    currency: Currency;
    createdAt: string;
  }>;
}

export interface DepositAddress {
  id: string;
  address: string;
  memo: string;
  available: boolean;
  supportedCurrencies: Currency[];
}

export interface Purchase {
  id: string;
  name: string;
  description: string;
  notes: string;
  imageUrl: string;
  price: string;
  currency: Currency;
  rateMerchantOverOrder: string;
}

export interface Payment {
  id: string;
  orderId: string;
  receivedAmount: string;
  receivedCurrency: Currency;
  txHash: string;
  confirmedAt: string;
  status: 'CONFIRMED';
  createdAt: string;
  depositAddress: DepositAddress;
  sourceAddress: string;
  custodyTxId: string;
}

export interface Update {
  id: string;
  message: string;
  entityType: 'ORDER' | 'PAYMENT';
  authorId: string;
  metadata: Record<string, string>;
  timestamp: string;
}

export interface OrderFee {
  id: string;
  label: string;
  type: 'PLATFORM_COLLECT';
  amount: string;
  currency: Currency;
  needsCollection: boolean;
  createdAt: string;
}

export interface PaymentRouteRef {
  id: string;
  externalId: string;
  address: string;
  memo: string;
}

export interface Order {
  id: string;
  externalId: string | null;
  link: string;
  userId: string | null;
  merchant: { id: string };
  initType: InitType;
  quote: Quote;
  depositAddress: DepositAddress | null;
  emailReceiptSent: boolean;
  emailReceiptSentAt: string | null;
  createdAt: string;
  expiresAt: string;
  status: OrderStatus;
  test: boolean;
  purchase: Purchase;
  payments: Payment[];
  paymentRoute: PaymentRouteRef | null;
  updates: Update[];
  metadata: Record<string, string>;
  settlements: Array<{ id: string; type: string; status: string }>;
  fees: OrderFee[];
}

/** The order plus what only the sandbox knows about it. */
export interface OrderRecord {
  order: Order;
  /** The `<id>` of the `pay_sandbox_<id>` key that created it. */
  merchantKey: string;
  /** Table code of the crypto the quote is in (`USDC_BASE` until the payer picks another). */
  payCode: string;
  payer: { name?: string; email?: string };
  /**
   * Where its webhooks go: locked when the order is created, as docs/upstream.md#payments-webhooks says of
   * the real service.
   */
  webhookUrl: string | undefined;
}

export const MERCHANT_CURRENCY = 'USD';

// Amounts are compared in integer units of the crypto's precision so 0.1 + 0.2 never misjudges a payment.
export function toUnits(amount: string, precision: number): bigint {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole + fraction.padEnd(precision, '0').slice(0, precision));
}

export function fromUnits(units: bigint, precision: number): string {
  const text = units.toString().padStart(precision + 1, '0');
  return precision === 0 ? text : `${text.slice(0, -precision)}.${text.slice(-precision)}`;
}

/** Totals of what is due and what has arrived, in the quote's crypto. */
export function balance(order: Order): { due: string; received: string; remaining: string } {
  const precision = order.quote.toAmount.currency.precision;
  const due = toUnits(order.quote.toAmount.amount, precision);
  const received = order.payments.reduce((sum, p) => sum + toUnits(p.receivedAmount, precision), 0n);
  const remaining = due > received ? due - received : 0n;
  return {
    due: fromUnits(due, precision),
    received: fromUnits(received, precision),
    remaining: fromUnits(remaining, precision),
  };
}
