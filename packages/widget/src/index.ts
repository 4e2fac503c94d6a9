// The package's side-effect-free entry: the element class, its events and types. Register it with ./define.
export type { ApiError, ErrorCode } from './api/client.ts';
export type * from './api/types.ts';
export { CryptoCheckout } from './crypto-checkout.ts';
export type { CheckoutEventMap } from './event-map.ts';
export * from './events.ts';
export type { Display } from './frame/frame-controller.ts';
export * from './frame/outcome-events.ts';
export * from './ramp/quote-event.ts';
