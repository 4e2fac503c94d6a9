/**
 * The package's public surface, free of side effects: build the app, read the config, and mint the tokens a
 * merchant's own server hands to the browser (`createCheckoutToken`, `createCustomerToken`).
 */
export { type AppType, createApp } from './app.ts';
export type { Clock } from './clock.ts';
export { type Config, ConfigError, loadConfig } from './config.ts';
export {
  type CspConfig,
  type StorefrontCsp,
  type StorefrontCspOptions,
  storefrontCsp,
  trustedTypePolicies,
} from './csp/storefront-csp.ts';
export type { AppDeps } from './deps.ts';
export type { FulfilmentEvent, FulfilmentEventType, OnEvent } from './events/fulfilment-events.ts';
export type { OrderView } from './orders/order.ts';
export type { OrderStatus } from './orders/status.ts';
export { createDeps, type DepsOverrides } from './process/app-deps.ts';
export {
  type Checkout,
  type CheckoutFetchClient,
  type CheckoutOptions,
  createCheckout,
  type LegacyCheckoutConfig,
} from './process/checkout.ts';
export { DataDirInUse } from './process/data-dir-lock.ts';
export { createMemoryStore } from './store/memory-store.ts';
export { createSqlStore, type SqlStoreOptions } from './store/sql-store.ts';
export { type Collection, StorageUnavailable, type Store } from './store/store.ts';
export {
  type CheckoutTokenInput,
  type CheckoutTokenPayload,
  type CustomerTokenInput,
  type CustomerTokenPayload,
  createCheckoutToken,
  createCustomerToken,
  verifyCheckoutToken,
  verifyCustomerToken,
} from './tokens.ts';
