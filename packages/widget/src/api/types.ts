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

export type OrderStatus = Schemas['OrderStatus'];
export type OrderBody = Schemas['CreateOrderBody'];
export type Order = Schemas['CreatedOrder'];
export type OrderView = Schemas['OrderView'];

export type DepositAddress = Schemas['DepositAddress'];

/** The codes of the backend's error envelope. */
export type BackendErrorCode = Schemas['Error']['error']['code'];
