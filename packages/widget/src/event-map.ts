/**
 * The element's events by name, for `addEventListener` (on the element, the document, any node): each
 * `checkout-*` event comes with its class and detail type. Apart from events.ts, whose classes the others extend,
 * so that no file of them imports another back.
 */
import type { CheckoutErrorEvent, CheckoutReadyEvent } from './events.ts';
import type {
  CheckoutCloseEvent,
  CheckoutCompleteEvent,
  CheckoutOrderEvent,
  CheckoutStatusEvent,
} from './frame/outcome-events.ts';
import type { CheckoutQuoteEvent } from './ramp/quote-event.ts';

declare global {
  interface GlobalEventHandlersEventMap {
    'checkout-ready': CheckoutReadyEvent;
    'checkout-quote': CheckoutQuoteEvent;
    'checkout-order': CheckoutOrderEvent;
    'checkout-status': CheckoutStatusEvent;
    'checkout-complete': CheckoutCompleteEvent;
    'checkout-error': CheckoutErrorEvent;
    'checkout-close': CheckoutCloseEvent;
  }
}

/** The element's events by name, as `addEventListener` types them. */
export type CheckoutEventMap = Pick<
  GlobalEventHandlersEventMap,
  | 'checkout-ready'
  | 'checkout-quote'
  | 'checkout-order'
  | 'checkout-status'
  | 'checkout-complete'
  | 'checkout-error'
  | 'checkout-close'
>;
