/**
 * The message tables: the words every mode shows (loading, retry, each error code's human message) are here;
 * each part of the UI brings its own (`messages`, in <part>/<part>.messages.ts), so a page downloads the English
 * of the parts it shows. Other languages load whole, once a page (internal/lang/*.ts, a block per part, keyed
 * and typed against each part's English: ./translation.ts).
 */
import { type ApiError, type ErrorCode, RETRYABLE } from '../api/client.ts';
import type { depositEn } from '../deposit/deposit.messages.ts';
import type { frameEn } from '../frame/frame.messages.ts';
import type { orderEn } from '../pay/order/order.messages.ts';
import type { payEn } from '../pay/pay.messages.ts';
import type { rampEn } from '../ramp/ramp.messages.ts';
import { loadOnce } from './load-once.ts';
import type { PartialTranslation, Table } from './translation.ts';

/** The shared messages in English, which also names them. */
export const sharedEn = {
  loading: 'Loading…',
  retry: 'Try again',
  eGone: 'This checkout is not available.',
  eMethod: 'This method is not available here.',
  eRetry: 'Something went wrong. Try again in a moment.',
  eInput: 'Please check your details.',
  eOffline: 'No connection. Check your network.',
  eUnavailable: 'The payment service is unavailable for now. Try again in a moment.',
};

export type MessageKey = keyof typeof sharedEn;

/** Each part's English, by the name of its block in a language file (`messages(part, en)`). */
export interface Parts {
  shared: typeof sharedEn;
  ramp: typeof rampEn;
  pay: typeof payEn;
  order: typeof orderEn;
  deposit: typeof depositEn;
  frame: typeof frameEn;
}

/**
 * A message (./translation.ts says how a language file writes one): text whose `{name}`s are its arguments, or
 * a plural, a text for each plural category of the language (Intl.PluralRules: `zero`, `one`, `two`, `few`,
 * `many`, `other`) chosen by its `count` argument; `other` is always there. Plurals are objects rather than ICU's
 * `{count, plural, …}` so that no parser ships: the selection below is all the code they cost.
 */
export type Message = string | Plural;
export type Plural = { other: string } & { [form in Intl.LDMLPluralRule]?: string };

/** A message's arguments by name (a number as it is: pass one in the locale's digits as a string). */
export type Args = Record<string, string | number>;

/**
 * Each loaded language's messages, by part, each in the order of that part's sorted keys. Filled as languages
 * load: immutable, the same for every element on the page, so one cache serves them all.
 */
export const TABLES: Record<string, Table> = {};

/**
 * The page's own messages (`CryptoCheckout.addTranslation`), by language, part and key: a correction of a
 * shipped language, or a language of the page's own. They win over the shipped table, which wins over English.
 */
export const OVERRIDES: Record<string, PartialTranslation> = {};

/**
 * Which languages have a table, and the loader of each (../languages/languages.ts): loaded (once) by the first
 * page whose locale is not English, so an English page carries neither the list nor any table.
 */
const languages = loadOnce(() => import('../languages/languages.ts'));

/**
 * The language of a locale: its first subtag, lower case (`pt-BR` → `pt`; `fil` is not `fi`). Norwegian (`no`, what
 * most Norwegian pages and browsers say) and Nynorsk (`nn`) read Bokmål, as Norwegian shops show it to both, unless
 * the page gives messages of its own in that language.
 */
const language = (locale: string, lang = locale.replace(/[-_].*/, '').toLowerCase()) =>
  OVERRIDES[lang] ? lang : lang.replace(/^n[no]$/, 'nb');

/**
 * The language `locale` is shown in: its own where it has a table (shipped and loaded, or the page's), else English
 * (also while its table loads: English is what shows).
 */
export const languageOf = (locale: string, lang = language(locale)): string =>
  OVERRIDES[lang] || TABLES[lang]?.shared ? lang : 'en';

/**
 * Loads the table of `locale`'s language; undefined when there is nothing to load (English, or done). A language
 * without a table is done once the list has loaded: an empty table, which every lookup reads as English.
 */
export function loadLanguage(locale: string): Promise<void> | undefined {
  const lang = language(locale);
  return lang === 'en' || TABLES[lang]
    ? undefined
    : languages()
        .then((list) => list.loaderOf(lang)?.())
        .then(
          (m) => {
            TABLES[lang] ??= m?.default ?? {};
          },
          (e: ApiError) => {
            // A refused file stays refused: the page reads English rather than asking again on every update.
            if (e.code === 'INTEGRITY') TABLES[lang] ??= {};
            throw e;
          },
        );
}

/** `message` in `locale` with `args`: its plural form for `args.count` (else `other`), each `{name}` replaced. */
export function format(message: Message, locale: string, args: Args = {}): string {
  return (
    typeof message === 'string'
      ? message
      : (message[new Intl.PluralRules(locale).select(args.count as number)] ?? message.other)
  ).replace(/\{(\w+)\}/g, (name, key) => `${args[key] ?? name}`);
}

/** A lookup of messages: `key` in `locale`'s language (English until that has loaded), with its `args`. */
export type Messages<K extends string> = (locale: string, key: K, args?: Args) => string;

const lookup =
  <K extends string>(part: string, en: Record<K, Message>, keys = Object.keys(en).sort()): Messages<K> =>
  (locale, key, args) => {
    const lang = language(locale);
    return format(
      (OVERRIDES[lang] as Record<string, Record<string, Message>> | undefined)?.[part]?.[key] ??
        TABLES[lang]?.[part]?.[keys.indexOf(key)] ??
        en[key],
      locale,
      args,
    );
  };

/** A shared message. */
export const msg: Messages<MessageKey> = lookup('shared', sharedEn);

/** The messages of one part of the UI, named by its English (`en`); a key it does not have is a shared one. */
export function messages<P extends keyof Parts>(
  part: P,
  en: Parts[P],
): Messages<(keyof Parts[P] & string) | MessageKey> {
  const own = lookup(part, en as Record<string, Message>);
  return (locale, key, args) => (key in en ? own(locale, key, args) : msg(locale, key as MessageKey, args));
}

/** The message key that explains an error code to a shopper. */
export function errorKey(code: ErrorCode): MessageKey {
  // A refused page origin or a refused file: the shopper is told as little (the console tells the developer).
  if (/TOKEN_|NOT_FOUND|INTEGRITY|ORIGIN_/.test(code)) return 'eGone';
  if (code === 'METHOD_UNAVAILABLE') return 'eMethod';
  if (code === 'NETWORK_ERROR') return 'eOffline';
  // UPSTREAM_ERROR, UPSTREAM_TIMEOUT: the provider failing or silent (an outage), said as it is.
  if (/^UPSTREAM_[ET]/.test(code)) return 'eUnavailable';
  return RETRYABLE.test(code) ? 'eRetry' : 'eInput';
}
