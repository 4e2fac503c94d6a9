/**
 * The backend API's shapes, named for the widget. Every one comes from the backend's OpenAPI document through
 * the generated ./openapi.gen.ts (`npm run api-types`), so they cannot drift from what the backend sends; types
 * only, nothing of it reaches the bundle. Amounts are decimal strings.
 */
import type { components } from './openapi.gen.ts';

type Schemas = components['schemas'];

export type Catalog = Schemas['Catalog'];
export type Country = Schemas['Country'];
export type Fiat = Schemas['Fiat'];
export type Crypto = Schemas['Crypto'];
export type Method = Schemas['Method'];
export type Chain = Schemas['Chain'];

export type Quote = Schemas['Quote'];
export type Side = Quote['side'];
/** A buy or a sell quote request: the method under its side's name (`paymentMethod` or `payoutMethod`). */
export type QuoteBody = Omit<Schemas['BuyQuoteBody'], 'paymentMethod'> & {
  paymentMethod?: Schemas['BuyQuoteBody']['paymentMethod'];
  payoutMethod?: Schemas['SellQuoteBody']['payoutMethod'];
};

export type RampSessionBody = Schemas['RampSessionBody'];
export type RampSession = Schemas['RampSession'];

export type VerifiedToken = Schemas['VerifiedCheckoutToken'];
/** What pay mode charges: a catalog product or what a checkout token stands for. */
export type Product = Schemas['Product'] | VerifiedToken['product'];

/**
 * An order's status. `paid_late` (a payment after the window closed, for the merchant to review) and `cancelled`
 * are the statuses issue 42's payment policy adds to the backend; named here too so that the element shows them
 * whichever backend it talks to (a union with the document's, harmless once the document names them).
 */
export type OrderStatus = Schemas['OrderStatus'] | 'paid_late' | 'cancelled';
export type OrderBody = Schemas['CreateOrderBody'];
export type Order = Schemas['CreatedOrder'];
/** The money of an order in the crypto paid: what is due, what arrived, the rest (until when, how) or the excess. */
export type Settlement = Schemas['OrderSettlement'];
/**
 * A refund of the order, with the claim page where the shopper gives the address it goes to: the shape issue 42's
 * refunds add to the order's view (read when the backend sends it).
 */
export interface OrderRefund {
  id: string;
  status: 'requested' | 'address_provided' | 'sent' | 'cancelled';
  amount: string;
  currency: string;
  network: string;
  claimUrl: string;
  txHash?: string;
}
export type OrderView = Omit<Schemas['OrderView'], 'status'> & {
  status: OrderStatus;
  refunds?: OrderRefund[];
};

export type DepositAddress = Schemas['DepositAddress'];

/** The codes of the backend's error envelope. */
export type BackendErrorCode = Schemas['Error']['error']['code'];
