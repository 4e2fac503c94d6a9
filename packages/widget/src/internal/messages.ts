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
import type { PartialTranslation } from './translation.ts';

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
 * A message of a language other than English, or of the page's own (./translation.ts says how a language file writes
 * one): text whose `{name}`s are its arguments, or a plural, a text for each plural category of the language
 * (Intl.PluralRules: `zero`, `one`, `two`, `few`, `many`, `other`) chosen by its `count` argument; `other` is always
 * there. Plurals are objects rather than ICU's `{count, plural, …}` so that no parser ships; the selection is in
 * the list of languages (../languages/languages.ts), with everything else only another language needs. English's
 * own messages are plain text (the parts' `*.messages.ts`): an English page carries none of it.
 */
export type Message = string | Plural;
export type Plural = { other: string } & { [form in Intl.LDMLPluralRule]?: string };

/** A message's arguments by name (a number as it is: pass one in the locale's digits as a string). */
export type Args = Record<string, string | number>;

/**
 * A language as the list of languages makes it for a locale's first subtag, once its table has loaded (or failed to):
 * the page's messages over the shipped table, then English.
 */
export interface Language {
  /** The language the element speaks: the subtag's (`nb` for `no` and `nn`), or `en` when nothing speaks it. */
  readonly name: string;
  /** `key` of `part` (whose English is `en`) in this language, its plural form picked for `count`; else undefined. */
  text(
    part: string,
    key: string,
    en: Record<string, string>,
    locale: string,
    count?: string | number,
  ): string | undefined;
  /** `text` (typed, or written by Intl in this locale) with Latin digits and marks: `١٢٣٤٫٥` → `1234.5`. */
  latin(text: string): string;
  /** `amount` (as Intl writes it in this locale) isolated left to right where it holds what reads right to left. */
  isolated(amount: string): string;
}

/**
 * The languages asked for so far, by a locale's first subtag: undefined where nothing could be loaded (offline),
 * which reads as English. The same for every element on the page, so one cache serves them all.
 */
export const LOADED: Record<string, Language | undefined> = {};

/**
 * The page's own messages (the element's `translations`), by language, part and key: a correction of a shipped
 * language, or a language of the page's own. They win over the shipped table, which wins over English.
 */
export const OVERRIDES: Record<string, PartialTranslation> = {};

/**
 * Which languages have a table, the loader of each, and what only another language needs (../languages/languages.ts):
 * loaded (once) by the first page whose locale is not English or that gives messages of its own, so an English page
 * carries neither the list, nor any table, nor the code that reads them.
 */
const languages = loadOnce(() => import('../languages/languages.ts'));

/** A locale's first subtag, lower case (`pt-BR` → `pt`; `fil` is not `fi`). */
const subtag = (locale: string) => locale.replace(/[-_].*/, '').toLowerCase();

/** `locale`'s language, once loaded: undefined for English (or while it loads, or where it could not load). */
export const languageFor = (locale: string): Language | undefined => LOADED[subtag(locale)];

/** The language `locale` is shown in: its own once loaded, where it has a table or the page's messages; else English. */
export const languageOf = (locale: string): string => languageFor(locale)?.name ?? 'en';

/**
 * Loads `locale`'s language; undefined when there is nothing to load (English without the page's messages, or done).
 * It never fails: what could not load (offline, or a file its integrity check refused) is English, and is not asked
 * for again; it resolves to the refusal, which the page is told of.
 */
export function loadLanguage(locale: string): Promise<ApiError | undefined> | undefined {
  const lang = subtag(locale);
  return lang in LOADED || (lang === 'en' && !OVERRIDES.en)
    ? undefined
    : languages()
        .then((list) => list.language(lang))
        .then(
          (language): undefined => {
            LOADED[lang] = language;
          },
          (e: ApiError) => {
            LOADED[lang] = undefined;
            return e.code === 'INTEGRITY' ? e : undefined;
          },
        );
}

/** `text` with each `{name}` replaced by its argument (one not given stays as it is, visible). */
export const fill = (text: string, args: Args = {}): string =>
  text.replace(/\{(\w+)\}/g, (name, key) => `${args[key] ?? name}`);

/** A lookup of messages: `key` in `locale`'s language (English until that has loaded), with its `args`. */
export type Messages<K extends string> = (locale: string, key: K, args?: Args) => string;

const lookup =
  <K extends string>(part: string, en: Record<K, string>): Messages<K> =>
  (locale, key, args) =>
    fill(languageFor(locale)?.text(part, key, en, locale, args?.count) ?? en[key], args);

/** A shared message. */
export const msg: Messages<MessageKey> = lookup('shared', sharedEn);

/** The messages of one part of the UI, named by its English (`en`); a key it does not have is a shared one. */
export function messages<P extends keyof Parts>(
  part: P,
  en: Parts[P],
): Messages<(keyof Parts[P] & string) | MessageKey> {
  const own = lookup(part, en as Record<string, string>);
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
