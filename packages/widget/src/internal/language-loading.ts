/**
 * Loading a locale's language, once a page: the list of languages (../languages/languages.ts) and the table it
 * names, neither of which an English page downloads.
 */
import type { ApiError } from '../api/client.ts';
import { loadOnce } from './load-once.ts';
import { LOADED, OVERRIDES, subtag } from './messages.ts';

/**
 * Which languages have a table, the loader of each, and what only another language needs (../languages/languages.ts):
 * loaded (once) by the first page whose locale is not English or that gives messages of its own, so an English page
 * carries neither the list, nor any table, nor the code that reads them.
 */
const languages = loadOnce(() => import('../languages/languages.ts'));

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
