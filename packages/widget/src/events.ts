/**
 * The element's events: typed, bubbling and composed, with JSON-safe details (amounts as decimal strings). The
 * classes of those only a view or a later part fires are in that part's folder, so in its chunk (see `CheckoutEvent`);
 * the package's entry (index.ts) exports them all.
 */
import type { ErrorCode } from './api/client.ts';
import type { OrderStatus, Quote, Side } from './api/types.ts';
import type { CheckoutMode } from './modes.ts';

export type { CheckoutMode };

export interface CheckoutReadyDetail {
  mode: CheckoutMode;
  /** The catalog's country (buy, sell, deposit). */
  country?: string;
  /** The product's name and price as the backend states them (pay). */
  product?: { name: string; price: string; currency: string };
  /** The language the element speaks (`language`): `en` when `lang`'s has no table. */
  language?: string;
}

/** The quote as the backend answered it. */
export type CheckoutQuoteDetail = Quote;

export interface CheckoutOrderDetail {
  /** `pay` for a payment order, `buy`/`sell` for a ramp session. */
  kind: 'pay' | Side;
  orderId?: string;
  status?: OrderStatus;
  /** The page the shopper is sent to. */
  url: string;
  expiresAt?: string;
  amount?: string;
  currency?: string;
}

export interface CheckoutStatusDetail {
  orderId: string;
  status: OrderStatus;
  final: boolean;
  paid?: { amount: string; currency: string };
}

export interface CheckoutCompleteDetail {
  kind: 'pay' | Side;
  orderId?: string;
  /** An order status for `pay`; `completed` for a ramp. */
  status: OrderStatus | 'completed';
  /** Where the element will go next (`return-url` with `orderId` and `status`), if anywhere. */
  returnUrl?: string;
}

export interface CheckoutErrorDetail {
  code: ErrorCode;
  /** A human message in the element's locale. */
  message: string;
  /** Whether retrying may help. */
  retryable: boolean;
}

export interface CheckoutCloseDetail {
  /** `user` (close button, Esc, or "Change" above an inline ramp page) or `page` (the embedded page asked to close). */
  reason: 'user' | 'page';
}

// Exported for the event classes that live with the part that fires them (quote: ramp/quote-event.ts; order,
// status, complete, close: frame/outcome-events.ts), so that the element's chunk carries only the two it fires.
/** The base of every event the element fires: bubbling, composed, with a JSON-safe `detail`. */
export class CheckoutEvent<T> extends CustomEvent<T> {
  constructor(type: string, detail: T, cancelable = false) {
    super(type, { bubbles: true, composed: true, cancelable, detail });
  }
}

/** The catalog or product has loaded and the element is ready for input. */
export class CheckoutReadyEvent extends CheckoutEvent<CheckoutReadyDetail> {
  constructor(detail: CheckoutReadyDetail) {
    super('checkout-ready', detail);
  }
}

/** Something failed; `code` comes from the one error table. */
export class CheckoutErrorEvent extends CheckoutEvent<CheckoutErrorDetail> {
  constructor(detail: CheckoutErrorDetail) {
    super('checkout-error', detail);
  }
}
