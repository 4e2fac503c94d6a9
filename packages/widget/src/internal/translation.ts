/**
 * What a language file is (internal/lang/*.ts): a block per part of the UI, each with exactly the keys of that
 * part's English, so a language missing a key or carrying an unknown one fails typecheck. A message is text with
 * the English's `{name}` arguments, or a plural (`{ one: '…', other: '…' }`: ./messages.ts, and I18N.md at the
 * package's root for translators). The keys never ship: a table is each block's messages in the order of its
 * sorted keys, which the build writes from each language file (build/pack-translations.ts) and `translation`
 * makes where the sources run unbuilt.
 */
import type { depositEn } from '../deposit/deposit.messages.ts';
import type { frameEn } from '../frame/frame.messages.ts';
import type { orderEn } from '../pay/order/order.messages.ts';
import type { payEn } from '../pay/pay.messages.ts';
import type { rampEn } from '../ramp/ramp.messages.ts';
import type { Message, sharedEn } from './messages.ts';

/** Each part's English, by the name of its block in a language file (`messages(part, en)`). */
export interface Parts {
  shared: typeof sharedEn;
  ramp: typeof rampEn;
  pay: typeof payEn;
  order: typeof orderEn;
  deposit: typeof depositEn;
  frame: typeof frameEn;
}

/** A language's messages: for each part, one message for each key of that part's English. */
export type Translation = { [P in keyof Parts]: Record<keyof Parts[P], Message> };

/**
 * Some messages of a language, as a page corrects or adds one (`CryptoCheckout.addTranslation`): any part, any
 * of its keys; what is left out comes from the language's shipped table, then English.
 */
export type PartialTranslation = { [P in keyof Parts]?: Partial<Record<keyof Parts[P], Message>> };

/** A language's table: for each part, its messages in the order of the part's sorted keys. */
export type Table = Record<string, readonly Message[]>;

/** The table of a translation (see the top of this file). */
export function pack(translation: Record<string, Record<string, Message>>): Table {
  return Object.fromEntries(
    Object.entries(translation).map(([part, block]) => [
      part,
      Object.keys(block)
        .sort()
        .map((key) => block[key] as Message),
    ]),
  );
}

/** A language file's translation as its table (the build packs the file itself, leaving this out). */
export const translation = (t: Translation): Table => pack(t);
