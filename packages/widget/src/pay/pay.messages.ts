/** Pay's words before an order (the main button), in English. Other languages: the `pay` block of internal/lang/*.ts. */
import { messages } from '../internal/messages.ts';

export const payEn = {
  payCrypto: 'Pay with crypto',
};

export type PayKey = keyof typeof payEn;

/** A message of this part, or a shared one, in the locale's language (English until that has loaded). */
export const payMessages = messages('pay', payEn);
