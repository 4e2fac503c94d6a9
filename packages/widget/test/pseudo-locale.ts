// The pseudo-locale `qps-ploc` (the test-only language `qps`): every message of every part with each letter
// accented and padded to about 135 % of its length between ⟦ ⟧, its `{name}` arguments kept. It is no shipped
// language: a test gives it to the element as a page would give its own (`translations`), so a text left in
// English, or a label cut when a language runs longer, shows up in a browser at 390 px.
import { depositEn } from '../src/deposit/deposit.messages.ts';
import { frameEn } from '../src/frame/frame.messages.ts';
import { type Message, sharedEn } from '../src/internal/messages.ts';
import type { Translation } from '../src/internal/translation.ts';
import { orderEn } from '../src/pay/order/order.messages.ts';
import { payEn } from '../src/pay/pay.messages.ts';
import { rampEn } from '../src/ramp/ramp.messages.ts';

export const PSEUDO_LOCALE = 'qps-ploc';

const plain = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const accented = 'áƀçđéƒĝĥíĵķĺɱñóƥʠŕšţúṽŵẋýžÁƁÇĐÉƑĜĤÍĴĶĹṀÑÓƤɊŔŠŢÚṼŴẊÝŽ';

/** Whether `text` went through `pseudo` (its opening mark). */
export const isPseudo = (text: string): boolean => text.includes('⟦');

/** `text` accented letter by letter, padded by a third and a bit, between ⟦ ⟧; `{name}`s left as they are. */
export function pseudo(text: string): string {
  const accent = (s: string) => s.replace(/[a-zA-Z]/g, (c) => accented[plain.indexOf(c)] ?? c);
  const body = text
    .split(/(\{\w+\})/)
    .map((part, i) => (i % 2 ? part : accent(part)))
    .join('');
  const letters = text.replace(/\{\w+\}/g, '').length;
  const pad = 'ĺõñĝẋ'.repeat(letters).slice(0, Math.max(1, Math.ceil(letters * 0.35) - 3));
  return `⟦${body} ${pad}⟧`;
}

const block = <T extends Record<string, Message>>(en: T): Record<keyof T, Message> =>
  Object.fromEntries(
    Object.entries(en).map(([key, m]) => [
      key,
      typeof m === 'string'
        ? pseudo(m)
        : Object.fromEntries(Object.entries(m).map(([form, text]) => [form, pseudo(text as string)])),
    ]),
  ) as Record<keyof T, Message>;

/** Every message of every part, pseudo-localised: typed as a language file is, so a key left out fails typecheck. */
export const pseudoTranslation: Translation = {
  shared: block(sharedEn),
  ramp: block(rampEn),
  pay: block(payEn),
  order: block(orderEn),
  deposit: block(depositEn),
  frame: block(frameEn),
};
