/**
 * The message tables: the words every mode shows (loading, retry, each error code's human message) are here;
 * each part of the UI brings its own (`messages`, in <part>/<part>.messages.ts), so a page downloads the English
 * of the parts it shows. Other languages load whole, once a page (internal/lang/*.ts, a block per part, keyed
 * and typed against each part's English: ./translation.ts).
 */
import { type ErrorCode, RETRYABLE } from '../api/client.ts';

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
export const OVERRIDES: Record<string, { [part: string]: Partial<Record<string, Message>> | undefined }> = {};

/** A locale's first subtag, lower case (`pt-BR` → `pt`; `fil` is not `fi`). */
export const subtag = (locale: string) => locale.replace(/[-_].*/, '').toLowerCase();

/** `locale`'s language, once loaded: undefined for English (or while it loads, or where it could not load). */
export const languageFor = (locale: string): Language | undefined => LOADED[subtag(locale)];

/** The language `locale` is shown in: its own once loaded, where it has a table or the page's messages; else English. */
export const languageOf = (locale: string): string => languageFor(locale)?.name ?? 'en';

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

/**
 * The messages of one part of the UI, named by its English (`en`); a key it does not have is a shared one. `part`
 * is the name of its block in a language file (`Parts` in ./translation.ts).
 */
export function messages<E extends Record<string, string>>(
  part: string,
  en: E,
): Messages<(keyof E & string) | MessageKey> {
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
