/** Pay's words (the main button and the order's outcome), in English. Other languages: the `pay` block of internal/lang/*.ts. */
import { messages } from '../internal/messages.ts';

export const payEn = {
  payCrypto: 'Pay with crypto',
  pending: 'Waiting for your payment…',
  underpaid: 'Partly paid: send the rest to complete.',
  paid: 'Paid. Thank you!',
  overpaid: 'Paid, more than was due. Thank you!',
  expired: 'This payment expired.',
  failed: 'The payment failed.',
  resume: 'Open the payment page',
  startOver: 'Start over',
};

export type PayKey = keyof typeof payEn;

/** A message of this part, or a shared one, in the locale's language (English until that has loaded). */
export const payMessages = messages('pay', payEn);
