/** Pay's words once there is an order (its status, the ways on), in English. Other languages: the `order` block of internal/lang/*.ts. */
import { messages } from '../../internal/messages.ts';

export const orderEn = {
  pending: 'Waiting for your payment…',
  underpaid: 'Partly paid: send the rest to complete.',
  paid: 'Paid. Thank you!',
  overpaid: 'Paid, more than was due. Thank you!',
  expired: 'This payment expired.',
  failed: 'The payment failed.',
  cancelled: 'This payment was cancelled.',
  paid_late: 'Paid after the time ran out: the shop is reviewing it.',
  resume: 'Open the payment page',
  startOver: 'Start over',
};

export type OrderKey = keyof typeof orderEn;

/** A message of this part, or a shared one, in the locale's language (English until that has loaded). */
export const orderMessages = messages('order', orderEn);
