/**
 * What a language file is (internal/lang/*.ts): a block per part of the UI, each with exactly the keys of that
 * part's English, so a language missing a key or carrying an unknown one fails typecheck. The keys never ship:
 * a table is each block's messages in the order of its sorted keys, one a line, which the build writes from
 * each language file (build/pack-translations.ts) and `translation` makes where the sources run unbuilt.
 */
import type { Parts } from './messages.ts';

/** A language's messages: for each part, one message for each key of that part's English. */
export type Translation = { [P in keyof Parts]: Record<keyof Parts[P], string> };

/** A language's table: for each part, its messages one a line, in the order of the part's sorted keys. */
export type Table = Record<string, string>;

/** The table of a translation (see the top of this file). */
export function pack(translation: Record<string, Record<string, string>>): Table {
  return Object.fromEntries(
    Object.entries(translation).map(([part, block]) => {
      const lines = Object.keys(block)
        .sort()
        .map((key) => block[key] as string);
      if (lines.some((line) => line.includes('\n'))) throw new Error(`a message of ${part} has a line break`);
      return [part, lines.join('\n')];
    }),
  );
}

/** A language file's translation as its table (the build packs the file itself, leaving this out). */
export const translation = (t: Translation): Table => pack(t);
