/**
 * The languages the element speaks besides English, each a loader of its table (internal/lang/*.ts, a chunk of
 * its own). A chunk of its own too, loaded only by a page whose locale is not English (../internal/messages.ts):
 * a loader names its chunk's hashed file, about 7 B of gzip each, so the list of twenty would weigh on every
 * English page (test/package.test.ts) where it costs a non-English page one small file before its table.
 */
import { loadOnce } from '../internal/load-once.ts';
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

/** The loader of the table of `lang` (a lower-case language subtag), or undefined: English then. */
export const loaderOf = (lang: string): Loader | undefined => loaders[lang];
