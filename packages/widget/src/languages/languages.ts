/**
 * The languages the element speaks besides English, each a loader of its table (internal/lang/*.ts, a chunk of
 * its own), and what only a page in another language needs: the page's own messages over a table, plural forms,
 * `no` and `nn` read as `nb`. A chunk of its own too, loaded only by a page whose locale is not English or that
 * gives messages of its own (../internal/messages.ts): a loader names its chunk's hashed file, about 7 B of gzip
 * each, so the list of twenty would weigh on every English page (test/package.test.ts) where it costs a
 * non-English page one small file before its table.
 */

import type { ApiError } from '../api/client.ts';
import { loadOnce } from '../internal/load-once.ts';
import { intl } from '../internal/locale.ts';
import { type Args, fill, type Language, type Message, OVERRIDES } from '../internal/messages.ts';
import type { Table } from '../internal/translation.ts';

type Loader = () => Promise<{ default: Table }>;

/** Each language's loader, by its code (a page's `no` and `nn` read `nb`: ../internal/messages.ts); each loads once. */
const loaders: Record<string, Loader> = {
  ar: loadOnce(() => import('../internal/lang/ar.ts')),
  cs: loadOnce(() => import('../internal/lang/cs.ts')),
  da: loadOnce(() => import('../internal/lang/da.ts')),
  de: loadOnce(() => import('../internal/lang/de.ts')),
  es: loadOnce(() => import('../internal/lang/es.ts')),
  fi: loadOnce(() => import('../internal/lang/fi.ts')),
  fr: loadOnce(() => import('../internal/lang/fr.ts')),
  hu: loadOnce(() => import('../internal/lang/hu.ts')),
  id: loadOnce(() => import('../internal/lang/id.ts')),
  it: loadOnce(() => import('../internal/lang/it.ts')),
  ja: loadOnce(() => import('../internal/lang/ja.ts')),
  nb: loadOnce(() => import('../internal/lang/nb.ts')),
  nl: loadOnce(() => import('../internal/lang/nl.ts')),
  pl: loadOnce(() => import('../internal/lang/pl.ts')),
  pt: loadOnce(() => import('../internal/lang/pt.ts')),
  ro: loadOnce(() => import('../internal/lang/ro.ts')),
  sv: loadOnce(() => import('../internal/lang/sv.ts')),
  th: loadOnce(() => import('../internal/lang/th.ts')),
  tr: loadOnce(() => import('../internal/lang/tr.ts')),
  vi: loadOnce(() => import('../internal/lang/vi.ts')),
};

/** The languages with a table, English (which needs none) first. */
export const LANGUAGES: readonly string[] = ['en', ...Object.keys(loaders)];

/** `message`'s text for `count`: a plural's form that the language's rules pick for it (else `other`). */
const pick = (message: Message, locale: string, count?: string | number): string =>
  typeof message === 'string'
    ? message
    : (message[intl(`#${locale}`, () => new Intl.PluralRules(locale)).select(Number(count))] ??
      message.other);

/** `message` in `locale` with `args`: its plural form for `args.count`, each `{name}` replaced. */
export const format = (message: Message, locale: string, args?: Args): string =>
  fill(pick(message, locale, args?.count), args);

/**
 * Arabic-Indic and Persian digits and Arabic marks (what an Arabic keyboard types, and what an amount field shows
 * where Intl writes Arabic numerals: `1234٫5`) as the Latin ones. Only a locale other than English writes them.
 */
const latin = (text: string): string =>
  text
    .replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) & 15))
    .replace(/\u066b/g, '.')
    .replace(/\u066c/g, ',');

/**
 * `amount` in a left-to-right isolate (U+2066 … U+2069) when it holds what reads right to left: the mark Intl starts
 * an Arabic amount with, or Arabic-Indic digits (WebKit's Arabic). Where amounts are joined in one left-to-right
 * line (`A → B`, a method's fees and limits), that would turn the text between two of them right to left
 * (`B → € A`); isolated, each reads as it is and the line keeps its order. Latin amounts (every English page's)
 * are left as they are.
 */
const isolated = (amount: string): string =>
  /[\u200f\u061c\u0660-\u0669\u06f0-\u06f9]/.test(amount) ? `\u2066${amount}\u2069` : amount;

/** Each part's keys, sorted (a table holds a part's messages in that order), by the part's English. */
const sortedKeys = new WeakMap<object, string[]>();

/** The page's message `key` of `part` in `lang`, if it gave one. */
const own = (lang: string, part: string, key: string): Message | undefined =>
  (OVERRIDES[lang] as Record<string, Record<string, Message>> | undefined)?.[part]?.[key];

/**
 * The language of a locale's first subtag (lower case): the page's messages in it (`translations`, read each time,
 * so that a page may give them later), then its shipped table, loaded now. Norwegian (`no`, what most Norwegian
 * pages and browsers say) and Nynorsk (`nn`) read Bokmål, as Norwegian shops show it to both, below the page's
 * own messages in `no` or `nn` where it gives some. A table that cannot load (offline) leaves the page's messages
 * and English: undefined, which the element reads as English, unless the page gave messages in that language.
 */
export async function language(lang: string): Promise<Language | undefined> {
  const code = lang.replace(/^n[no]$/, 'nb');
  const loader = loaders[code];
  const table: Table | undefined = await loader?.().then(
    (m) => m.default,
    // Offline: English. A file whose bytes are not the build's is refused, and the page is told (loadLanguage).
    (e: ApiError) => {
      if (e.code === 'INTEGRITY') throw e;
      return undefined;
    },
  );
  // A shipped table that could not load: English, as if nothing had (unless the page gave messages in it).
  if (loader && !table && !OVERRIDES[lang] && !OVERRIDES[code]) return undefined;
  return {
    get name() {
      return OVERRIDES[lang] ? lang : table || OVERRIDES[code] ? code : 'en';
    },
    text(part, key, en, locale, count) {
      const keys = sortedKeys.get(en) ?? Object.keys(en).sort();
      sortedKeys.set(en, keys);
      const message = own(lang, part, key) ?? own(code, part, key) ?? table?.[part]?.[keys.indexOf(key)];
      return message === undefined ? undefined : pick(message, locale, count);
    },
    latin,
    isolated,
  };
}
