/** `checkout-quote`'s class: only buy and sell fire it, so it ships in their chunk rather than the element's. */
import { CheckoutEvent, type CheckoutQuoteDetail } from '../events.ts';

/** A new quote is shown (after typing, or a refresh). */
export class CheckoutQuoteEvent extends CheckoutEvent<CheckoutQuoteDetail> {
  constructor(detail: CheckoutQuoteDetail) {
    super('checkout-quote', detail);
  }
}
