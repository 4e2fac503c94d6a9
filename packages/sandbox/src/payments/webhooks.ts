/**
 * Payments webhook bodies in the two casings docs/upstream.md#payments-webhooks documents: the newer
 * camelCase "Commerce" payload and the older snake_case "Swapped Pay" one (still what the upstream's own
 * WooCommerce plugin parses).
 */

import { CHAIN_NAMES, CRYPTOS, fiatToFiat } from './currencies.ts';
import { balance, MERCHANT_CURRENCY, type OrderRecord } from './order.ts';
import type { OrderEvent } from './transition.ts';

export type WebhookCasing = 'camel' | 'snake';

/**
 * Every documented ORDER_CREATED sample says PENDING_CURRENCY_SELECTION ("created, currency selection still
 * pending"), while the API shows a new order as PENDING_USER_CREATION; the sandbox reproduces both as documented.
 */
const CREATED_STATUS = 'PENDING_CURRENCY_SELECTION';

export interface WebhookFacts {
  eventId: string;
  eventType: OrderEvent['type'];
  orderId: string;
  orderStatus: string;
  merchantId: string;
  purchaseAmount: number;
  purchaseCurrency: string;
  testMode: boolean;
  amountInMerchantCurrency: string;
  externalId: string | undefined;
  customerId: string | undefined;
  crypto?: { symbol: string; amount: string; network: string };
}

/** What a webhook says about an order, independent of casing. */
export function webhookFacts(record: OrderRecord, event: OrderEvent, eventId: string): WebhookFacts {
  const { order } = record;
  const metadata = order.metadata;
  const facts: WebhookFacts = {
    eventId,
    eventType: event.type,
    orderId: order.id,
    orderStatus: event.type === 'ORDER_CREATED' ? CREATED_STATUS : order.status,
    merchantId: order.merchant.id,
    purchaseAmount: Number(order.purchase.price),
    purchaseCurrency: order.purchase.currency.symbol,
    testMode: order.test,
    // "123", not "123.00": the documented sample shows the shortest form.
    amountInMerchantCurrency: String(
      Number(fiatToFiat(order.purchase.price, order.purchase.currency.symbol, MERCHANT_CURRENCY)),
    ),
    externalId: metadata['externalId'],
    customerId: metadata['customerId'] ?? metadata['userId'],
  };
  const row = CRYPTOS[record.payCode];
  if (event.type !== 'ORDER_CREATED' && row) {
    // The documented amounts are what arrived (an underpaid sample carries a fraction of the price).
    facts.crypto = { symbol: row.symbol, amount: balance(order).received, network: CHAIN_NAMES[row.chain] };
  }
  return facts;
}

/** The body to send. Optional fields are left out when unset, as the docs say ("optional, if set"). */
export function webhookBody(facts: WebhookFacts, casing: WebhookCasing): Record<string, unknown> {
  if (casing === 'snake') {
    return {
      event_id: facts.eventId,
      event_type: facts.eventType,
      // The old payloads prefix ids with `SP-`; receivers must strip it to match the API's order id.
      order_id: facts.orderId.startsWith('SP-') ? facts.orderId : `SP-${facts.orderId}`,
      order_status: facts.orderStatus,
      merchant_id: facts.merchantId,
      order_purchase_amount: facts.purchaseAmount,
      order_purchase_currency: facts.purchaseCurrency,
      ...(facts.externalId !== undefined ? { external_order_id: facts.externalId } : {}),
      ...(facts.customerId !== undefined ? { external_customer_id: facts.customerId } : {}),
      ...(facts.crypto
        ? {
            order_crypto: facts.crypto.symbol,
            order_crypto_amount: Number(facts.crypto.amount),
            network: facts.crypto.network,
          }
        : {}),
    };
  }
  return {
    eventId: facts.eventId,
    eventType: facts.eventType,
    orderId: facts.orderId,
    orderStatus: facts.orderStatus,
    merchantId: facts.merchantId,
    orderPurchaseAmount: facts.purchaseAmount,
    orderPurchaseCurrency: facts.purchaseCurrency,
    testMode: facts.testMode,
    merchantCurrency: MERCHANT_CURRENCY,
    orderPurchaseAmountInMerchantCurrency: facts.amountInMerchantCurrency,
    ...(facts.externalId !== undefined ? { externalId: facts.externalId } : {}),
    ...(facts.customerId !== undefined ? { customerId: facts.customerId } : {}),
    ...(facts.crypto
      ? {
          orderCrypto: facts.crypto.symbol,
          orderCryptoAmount: facts.crypto.amount,
          network: facts.crypto.network,
        }
      : {}),
  };
}
