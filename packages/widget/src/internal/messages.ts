/**
 * The message tables: the words every mode shows (loading, retry, each error code's human message) are here;
 * each part of the UI brings its own (`messages`, in <part>/<part>.messages.ts), so a page downloads the English
 * of the parts it shows. Other languages load whole, once a page (internal/lang/*.ts, a block per part, keyed
 * and typed against each part's English: ./translation.ts).
 */
import { type ErrorCode, RETRYABLE } from '../api/client.ts';
import type { depositEn } from '../deposit/deposit.messages.ts';
import type { frameEn } from '../frame/frame.messages.ts';
import type { orderEn } from '../pay/order/order.messages.ts';
import type { payEn } from '../pay/pay.messages.ts';
import type { rampEn } from '../ramp/ramp.messages.ts';
import { loadOnce } from './load-once.ts';

/** The shared messages in English, which also names them. */
const en = {
  loading: 'Loading…',
  retry: 'Try again',
  eGone: 'This checkout is not available.',
  eMethod: 'This method is not available here.',
  eRetry: 'Something went wrong. Try again in a moment.',
  eInput: 'Please check your details.',
  eOffline: 'No connection. Check your network.',
};

export type MessageKey = keyof typeof en;

/** Each part's English, by the name of its block in a language file (`messages(part, en)`). */
export interface Parts {
  shared: typeof en;
  ramp: typeof rampEn;
  pay: typeof payEn;
  order: typeof orderEn;
  deposit: typeof depositEn;
  frame: typeof frameEn;
}

/**
 * Each loaded language's messages, by part, each in the order of that part's sorted keys. Filled as languages
 * load: immutable lines, the same for every element on the page, so one cache serves them all.
 */
export const TABLES: Record<string, Record<string, readonly string[]>> = {};

/**
 * Which languages have a table, and the loader of each (../languages/languages.ts): loaded (once) by the first
 * page whose locale is not English, so an English page carries neither the list nor any table.
 */
const languages = loadOnce(() => import('../languages/languages.ts'));

/** The language subtag of a locale, lower case (`pt-BR` → `pt`, `fil` → `fil`). */
const language = (locale: string) => locale.replace(/[-_].*/, '').toLowerCase();

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
        .then((m) => {
          TABLES[lang] ??= Object.fromEntries(
            Object.entries(m?.default ?? {}).map(([part, lines]) => [part, lines.split('\n')]),
          );
        });
}

/** A lookup of messages: `key` in `locale`'s language (English until that has loaded), `{0}` replaced by `arg`. */
export type Messages<K extends string> = (locale: string, key: K, arg?: string) => string;

const lookup =
  <K extends string>(part: string, en: Record<K, string>, keys = Object.keys(en).sort()): Messages<K> =>
  (locale, key, arg = '') =>
    (TABLES[language(locale)]?.[part]?.[keys.indexOf(key)] ?? en[key]).replace('{0}', arg);

/** A shared message. */
export const msg: Messages<MessageKey> = lookup('shared', en);

/** The messages of one part of the UI, named by its English (`en`); a key it does not have is a shared one. */
export function messages<P extends keyof Parts>(
  part: P,
  en: Parts[P],
): Messages<(keyof Parts[P] & string) | MessageKey> {
  const own = lookup(part, en as Record<string, string>);
  return (locale, key, arg) => (key in en ? own(locale, key, arg) : msg(locale, key as MessageKey, arg));
}

/** The message key that explains an error code to a shopper. */
export function errorKey(code: ErrorCode): MessageKey {
  if (/TOKEN_|NOT_FOUND/.test(code)) return 'eGone';
  if (code === 'METHOD_UNAVAILABLE') return 'eMethod';
  if (code === 'NETWORK_ERROR') return 'eOffline';
  return RETRYABLE.test(code) ? 'eRetry' : 'eInput';
}
