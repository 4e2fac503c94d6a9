/**
 * The classes of the events that follow a press of the main button: an order or ramp session made, its status, the
 * checkout's end, a close. Only later parts fire them (the order's, the session's, the frame's), and each of those
 * loads the frame's chunk beside it, so they ship here rather than in the element's chunk.
 */
import {
  type CheckoutCloseDetail,
  type CheckoutCompleteDetail,
  CheckoutEvent,
  type CheckoutOrderDetail,
  type CheckoutStatusDetail,
} from '../events.ts';

/** An order (pay) or a ramp session (buy/sell) was created and its page is being shown. */
export class CheckoutOrderEvent extends CheckoutEvent<CheckoutOrderDetail> {
  constructor(detail: CheckoutOrderDetail) {
    super('checkout-order', detail);
  }
}

/** The order's status changed. */
export class CheckoutStatusEvent extends CheckoutEvent<CheckoutStatusDetail> {
  constructor(detail: CheckoutStatusDetail) {
    super('checkout-status', detail);
  }
}

/** The checkout reached its end; cancel it (`preventDefault()`) to stay on the page instead of going to `return-url`. */
export class CheckoutCompleteEvent extends CheckoutEvent<CheckoutCompleteDetail> {
  constructor(detail: CheckoutCompleteDetail) {
    super('checkout-complete', detail, true);
  }
}

/** The modal was closed. */
export class CheckoutCloseEvent extends CheckoutEvent<CheckoutCloseDetail> {
  constructor(detail: CheckoutCloseDetail) {
    super('checkout-close', detail);
  }
}
