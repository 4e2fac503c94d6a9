/** The payment or ramp page's words (its title, the modal's close, the new-tab offer), in English. Other languages: the `frame` block of internal/lang/*.ts. */
import { messages } from '../internal/messages.ts';

export const frameEn = {
  checkout: 'Checkout',
  newTab: 'Not showing? Open it in a new tab',
  close: 'Close',
};

export type FrameKey = keyof typeof frameEn;

/** A message of this part, or a shared one, in the locale's language (English until that has loaded). */
export const frameMessages = messages('frame', frameEn);
