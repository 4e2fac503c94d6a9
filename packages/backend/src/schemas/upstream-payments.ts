/**
 * What the payments API answers, parsed leniently (docs/upstream.md#payments-api, #payment-orders): unknown fields pass, amounts
 * may be numbers or strings (kept as decimal strings, our API's money form), counts may be numeric strings
 * (made numbers), most fields are optional or null, metadata may use the `user*` or the `customer*` names,
 * a currency may be a code or a Currency object, and the envelope may or may not carry `message`/`success`.
 */
import { z } from 'zod';
import { upstreamDecimal } from '../money.ts';

const text = z.string().nullish();

/** Integers that some variants send as strings (`"3"`). */
const count = z.union([z.number().int(), z.string().regex(/^\d+$/)]).transform((value) => Number(value));

const currencyObject = z.looseObject({
  id: text,
  symbol: text,
  officialId: text,
  name: text,
  type: text,
  precision: count.nullish(),
  blockchain: z.looseObject({ id: text, name: text }).nullish(),
});

/** A currency as a code: the string itself, or the object's symbol (else officialId, else name). */
export const currencyCode = z
  .union([z.string(), currencyObject])
  .transform((value) =>
    typeof value === 'string' ? value : (value.symbol ?? value.officialId ?? value.name ?? ''),
  );

const money = z.looseObject({ amount: upstreamDecimal.nullish(), currency: currencyCode.nullish() });

export const upstreamPurchase = z.looseObject({
  id: text,
  name: text,
  description: text,
  notes: text,
  imageUrl: text,
  price: upstreamDecimal.nullish(),
  currency: currencyCode.nullish(),
});

export const upstreamPayment = z.looseObject({
  id: text,
  orderId: text,
  receivedAmount: upstreamDecimal.nullish(),
  receivedCurrency: currencyCode.nullish(),
  txHash: text,
  confirmedAt: text,
  status: text,
  createdAt: text,
  sourceAddress: text,
});

export const upstreamUpdate = z.looseObject({
  id: text,
  message: text,
  entityType: text,
  authorId: text,
  timestamp: text,
  createdAt: text,
  metadata: z.record(z.string(), z.unknown()).nullish(),
});

/** Both naming sets; `customer` reads whichever is present. */
export const upstreamMetadata = z
  .looseObject({
    externalId: text,
    redirectUrl: text,
    userId: text,
    userName: text,
    userEmail: text,
    userCountry: text,
    userLang: text,
    customerId: text,
    customerName: text,
    customerEmail: text,
    customerCountry: text,
    customerLang: text,
  })
  .transform((m) => ({
    ...m,
    customer: {
      id: m.customerId ?? m.userId ?? null,
      name: m.customerName ?? m.userName ?? null,
      email: m.customerEmail ?? m.userEmail ?? null,
      country: m.customerCountry ?? m.userCountry ?? null,
      lang: m.customerLang ?? m.userLang ?? null,
    },
  }));

const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((value) => value ?? []);

export const upstreamOrder = z.looseObject({
  id: z.string().min(1),
  externalId: text,
  link: text,
  status: text,
  initType: text,
  createdAt: text,
  expiresAt: text,
  test: z.boolean().nullish(),
  purchase: upstreamPurchase.nullish(),
  quote: z.looseObject({ fromAmount: money.nullish(), toAmount: money.nullish() }).nullish(),
  payments: list(upstreamPayment),
  updates: list(upstreamUpdate),
  metadata: upstreamMetadata.nullish(),
});
export type UpstreamOrder = z.output<typeof upstreamOrder>;

export const upstreamPagination = z.looseObject({
  currentPage: count.nullish(),
  totalPages: count.nullish(),
  totalItems: count.nullish(),
  itemsPerPage: count.nullish(),
});
export type UpstreamPagination = z.output<typeof upstreamPagination>;

/** `{data, message?, success?}`; a `success: false` with a 2xx status is still a failure. */
export const payEnvelope = z.looseObject({
  data: z.unknown().optional(),
  message: z.string().nullish(),
  success: z.boolean().nullish(),
});

export const upstreamOrderList = z.looseObject({
  orders: list(upstreamOrder),
  pagination: upstreamPagination.nullish(),
});
export type UpstreamOrderList = z.output<typeof upstreamOrderList>;

export const upstreamPaymentRoute = z.looseObject({
  id: text,
  externalId: text,
  address: z.string().min(1),
  memo: text,
  chainName: text,
  chain: text,
  available: z.boolean().nullish(),
  // Plain codes in the docs; tolerate Currency objects as on orders.
  supportedCurrencies: list(currencyCode),
  createdAt: text,
});
export type UpstreamPaymentRoute = z.output<typeof upstreamPaymentRoute>;

export const upstreamPaymentRoutes = z.looseObject({
  paymentRoutes: z.array(upstreamPaymentRoute).min(1),
});

/** Where the created order's id and link may be (docs/upstream.md#payment-orders: the merchant plugin's fallbacks). */
export const createdOrderSources = z.looseObject({
  data: z
    .looseObject({
      order: z.looseObject({ id: text, link: text }).nullish(),
      id: text,
      link: text,
    })
    .nullish(),
  id: text,
  link: text,
  url: text,
  paymentUrl: text,
});

const amount = upstreamDecimal.nullish();

/** A payments webhook, in either casing (docs/upstream.md#payments-webhooks), normalised to one shape. */
export const paymentsWebhook = z
  .looseObject({
    id: text,
    eventId: text,
    event_id: text,
    eventType: text,
    event_type: text,
    orderId: text,
    order_id: text,
    orderStatus: text,
    order_status: text,
    externalId: text,
    external_order_id: text,
    external_id: text,
    orderCrypto: text,
    order_crypto: text,
    orderCryptoAmount: amount,
    order_crypto_amount: amount,
    customerId: text,
    external_customer_id: text,
  })
  .transform((e) => ({
    eventId: e.eventId ?? e.event_id ?? e.id ?? null,
    eventType: e.eventType ?? e.event_type ?? null,
    // Older payloads prefix order ids with `SP-`: kept as they came, compared with sameUpstreamOrder.
    orderId: e.orderId ?? e.order_id ?? null,
    orderStatus: e.orderStatus ?? e.order_status ?? null,
    externalId: e.externalId ?? e.external_order_id ?? e.external_id ?? null,
    crypto: e.orderCrypto ?? e.order_crypto ?? null,
    cryptoAmount: e.orderCryptoAmount ?? e.order_crypto_amount ?? null,
    customerId: e.customerId ?? e.external_customer_id ?? null,
  }));
export type PaymentsWebhook = z.output<typeof paymentsWebhook>;
