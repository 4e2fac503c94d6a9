// Each part's English, by the name of its block in a language file (`Parts` in src/internal/translation.ts): what the
// language tests hold each language, and the pseudo-locale, to.
import { depositEn } from '../src/deposit/deposit.messages.ts';
import { frameEn } from '../src/frame/frame.messages.ts';
import { sharedEn } from '../src/internal/messages.ts';
import { orderEn } from '../src/pay/order/order.messages.ts';
import { payEn } from '../src/pay/pay.messages.ts';
import { rampEn } from '../src/ramp/ramp.messages.ts';

export const english: Record<string, Record<string, string>> = {
  shared: sharedEn,
  ramp: rampEn,
  pay: payEn,
  order: orderEn,
  deposit: depositEn,
  frame: frameEn,
};
