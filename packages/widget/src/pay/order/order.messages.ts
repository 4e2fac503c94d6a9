/** Pay's words once there is an order (its status, the ways on), in English. Other languages: the `order` block of internal/lang/*.ts. */
import { messages } from '../../internal/messages.ts';

// `underpaid`: where the backend cannot tell the rest (the upstream did not say what was due); `underpaidRest` and
// `excess`: `{amount}` is the exact rest or excess with its crypto; `sendTo`: `{network}` is the chain the address
// is on; `timeLeft`: `{time}` is a clock (`4:05`).
export const orderEn = {
  pending: 'Waiting for your payment…',
  underpaid: 'Partly paid: send the rest to complete.',
  underpaidRest: 'Partly paid: {amount} is still due.',
  payRest: 'Pay the rest',
  sendTo: 'Send it to this address on {network}:',
  sendToAddress: 'Send it to this address:',
  memo: 'Memo or tag: {memo}',
  copy: 'Copy',
  copied: 'Copied',
  timeLeft: 'Time left to pay: {time}',
  timeUp: 'The time to pay the rest has run out.',
  paid: 'Paid. Thank you!',
  overpaid: 'Paid, more than was due. Thank you!',
  excess: '{amount} more than was due arrived. The merchant will return it to you.',
  claimRefund: 'Claim your refund',
  paid_late: 'Your payment arrived after the time to pay. The merchant is reviewing it.',
  expired: 'This payment expired.',
  failed: 'The payment failed.',
  cancelled: 'This payment was cancelled.',
  resume: 'Open the payment page',
  startOver: 'Start over',
};

export type OrderKey = keyof typeof orderEn;

/** A message of this part, or a shared one, in the locale's language (English until that has loaded). */
export const orderMessages = messages('order', orderEn);
