/**
 * `crypto-checkout/react`: `<CryptoCheckout>` for React, a `@lit/react` wrapper with typed event props.
 *
 * ```tsx
 * import { CryptoCheckout } from 'crypto-checkout/react';
 * <CryptoCheckout mode="pay" product="tshirt" onCheckoutComplete={(e) => console.log(e.detail.status)} />
 * ```
 *
 * Importing this entry registers `<crypto-checkout>` (through `./define.ts`, once, like `crypto-checkout/define`):
 * the wrapper renders that tag, so it is useless without the definition, and React users opt in to it by
 * importing this entry. Properties are set as properties (`amount`, `theme`, …); event props are listeners.
 */
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import { CryptoCheckout as CryptoCheckoutElement } from './crypto-checkout.ts';
import './define.ts';
import type { CheckoutErrorEvent, CheckoutReadyEvent } from './events.ts';
import type {
  CheckoutCloseEvent,
  CheckoutCompleteEvent,
  CheckoutOrderEvent,
  CheckoutStatusEvent,
} from './frame/outcome-events.ts';
import type { CheckoutQuoteEvent } from './ramp/quote-event.ts';

/** The React prop of each event the element fires. */
export const checkoutEventProps = {
  onCheckoutReady: 'checkout-ready' as EventName<CheckoutReadyEvent>,
  onCheckoutQuote: 'checkout-quote' as EventName<CheckoutQuoteEvent>,
  onCheckoutOrder: 'checkout-order' as EventName<CheckoutOrderEvent>,
  onCheckoutStatus: 'checkout-status' as EventName<CheckoutStatusEvent>,
  onCheckoutComplete: 'checkout-complete' as EventName<CheckoutCompleteEvent>,
  onCheckoutError: 'checkout-error' as EventName<CheckoutErrorEvent>,
  onCheckoutClose: 'checkout-close' as EventName<CheckoutCloseEvent>,
};

export const CryptoCheckout = createComponent({
  react: React,
  tagName: 'crypto-checkout',
  elementClass: CryptoCheckoutElement,
  events: checkoutEventProps,
  displayName: 'CryptoCheckout',
});

/** The props `<CryptoCheckout>` takes. */
export type CryptoCheckoutProps = React.ComponentProps<typeof CryptoCheckout>;
export type * from './events.ts';
export type { CryptoCheckoutElement };
