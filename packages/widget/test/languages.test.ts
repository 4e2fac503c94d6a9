// Every language's table as a shopper reads it: nothing left in English, the English's arguments kept, each
// language's own punctuation, and the language a page's locale picks (src/languages/languages.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tableOfSource } from '../build/pack-translations.ts';
import { loadLanguage } from '../src/internal/language-loading.ts';
import { languageOf, type Message, OVERRIDES } from '../src/internal/messages.ts';
import { LANGUAGES } from '../src/languages/languages.ts';
import { rampMessages } from '../src/ramp/ramp.messages.ts';
import { english } from './english.ts';

/** A language's messages as its source says them: part → key → message. */
function messagesOf(lang: string): Record<string, Record<string, Message>> {
  const file = join(import.meta.dirname, '..', 'src', 'internal', 'lang', `${lang}.ts`);
  const table = tableOfSource(readFileSync(file, 'utf8'), file);
  return Object.fromEntries(
    Object.entries(english).map(([part, en]) => {
      const said = table[part] ?? [];
      return [
        part,
        Object.fromEntries(
          Object.keys(en)
            .sort()
            .map((key, i) => [key, said[i] ?? '']),
        ),
      ];
    }),
  );
}

/** Each text of a message: the message, or each of its plural forms. */
const texts = (message: Message): string[] =>
  typeof message === 'string' ? [message] : Object.values(message);

/** The text of a message for most counts (a plural's `other`). */
const other = (message: Message): string => (typeof message === 'string' ? message : message.other);

/** Every text of a language, each plural form on its own. */
const all = (lang: string): string[] =>
  Object.values(messagesOf(lang)).flatMap((block) => Object.values(block).flatMap(texts));

const others = LANGUAGES.filter((lang) => lang !== 'en');

/** Messages a language writes as English does, because they are its own words too. */
const sameAsEnglish: Record<string, readonly string[]> = {
  Total: ['es', 'fr', 'id', 'pt', 'ro'],
  Crypto: ['fr', 'nl'],
  'Minimum: {amount}': ['cs', 'da', 'de', 'hu', 'id', 'nb', 'pl'],
  'Maximum: {amount}': ['cs', 'de', 'hu'],
};

/** The arguments of a text, sorted. */
const argumentsOf = (text: string) => [...text.matchAll(/\{\w+\}/g)].map(([name]) => name).sort();

describe('languages', () => {
  it('speaks twenty languages besides English, Norwegian as Bokmål', () => {
    assert.deepEqual(
      [...others].sort(),
      'ar cs da de es fi fr hu id it ja nb nl pl pt ro sv th tr vi'.split(' '),
    );
  });

  it('leaves nothing in English but the words a language shares with it', () => {
    const left: string[] = [];
    for (const lang of others)
      for (const [part, block] of Object.entries(messagesOf(lang)))
        for (const [key, message] of Object.entries(block))
          for (const text of texts(message))
            if (texts(english[part]?.[key] ?? '').includes(text) && !sameAsEnglish[text]?.includes(lang))
              left.push(`${lang} ${part}.${key}: ${text}`);
    assert.deepEqual(left, []);
  });

  it("keeps each English message's arguments, each once", () => {
    for (const lang of others)
      for (const [part, block] of Object.entries(messagesOf(lang)))
        for (const [key, message] of Object.entries(block))
          assert.deepEqual(
            argumentsOf(other(message)),
            argumentsOf(other(english[part]?.[key] ?? '')),
            `${lang} ${part}.${key}: ${other(message)}`,
          );
  });

  it("writes each language's own punctuation", () => {
    for (const lang of others)
      for (const text of all(lang)) {
        assert.doesNotMatch(text, /\.\.\./, `${lang}: an ellipsis is one character (…): ${text}`);
        assert.doesNotMatch(text, /["']/, `${lang}: straight quotes: ${text}`);
        assert.equal(text, text.trim(), `${lang}: spaces around ${text}`);
      }
    // French: a narrow no-break space before ? ! : and inside « », never one a line may break at.
    for (const text of all('fr')) assert.doesNotMatch(text, /[ \u00a0][?!:;»]|« /, `fr: ${text}`);
    // Japanese: full-width punctuation; Arabic: its own question mark and comma; Thai: no gendered particle.
    for (const text of all('ja'))
      assert.doesNotMatch(text, /[?!:,()]/, `ja: half-width punctuation: ${text}`);
    for (const text of all('ar')) assert.doesNotMatch(text, /[?,]/, `ar: a Latin ? or ,: ${text}`);
    for (const text of all('th')) assert.doesNotMatch(text, /ครับ|ค่ะ|คะ/, `th: a gendered particle: ${text}`);
    // Romanian: ș and ț with the comma below, not the cedilla.
    for (const text of all('ro')) assert.doesNotMatch(text, /[şţŞŢ]/, `ro: a cedilla: ${text}`);
    // Quotes around a name: each language's own.
    const quoted = (lang: string) => other(messagesOf(lang).ramp?.unknownCountry ?? '');
    assert.match(quoted('cs'), /„\{country\}“/);
    assert.match(quoted('pl'), /„\{country\}”/);
    assert.match(quoted('ja'), /「\{country\}」/);
    assert.match(quoted('nb'), /«\{country\}»/);
  });

  it("picks a page's language by its language subtag: Norwegian and Nynorsk read Bokmål, Filipino is not Finnish", async () => {
    for (const locale of ['nb-NO', 'no', 'nn-NO', 'pt-BR', 'fil-PH', 'zh-Hans-CN', 'en-GB'])
      await loadLanguage(locale);
    assert.equal(rampMessages('nb-NO', 'continue'), 'Fortsett');
    assert.equal(rampMessages('no', 'continue'), 'Fortsett');
    assert.equal(rampMessages('nn-NO', 'continue'), 'Fortsett');
    assert.equal(rampMessages('pt-BR', 'continue'), 'Continuar');
    assert.equal(rampMessages('fil-PH', 'continue'), 'Continue');
    assert.equal(rampMessages('zh-Hans-CN', 'continue'), 'Continue');
    assert.deepEqual(
      ['nb-NO', 'nn-NO', 'pt-BR', 'fil-PH', 'zh-Hans-CN'].map((locale) => languageOf(locale)),
      ['nb', 'nb', 'pt', 'en', 'en'],
    );
    // Each known once: nothing more to load.
    for (const locale of ['no-NO', 'fil', 'zh', 'en']) assert.equal(loadLanguage(locale), undefined, locale);
  });

  it("shows a page's own Nynorsk, where it gives one, over Bokmål", async () => {
    try {
      OVERRIDES.nn = { ramp: { continue: 'Hald fram' } };
      await loadLanguage('nn-NO');
      assert.equal(languageOf('nn-NO'), 'nn');
      assert.equal(rampMessages('nn-NO', 'continue'), 'Hald fram');
      assert.equal(rampMessages('nn-NO', 'change'), 'Endre', 'Bokmål for what the page left out');
      assert.equal(rampMessages('no', 'continue'), 'Fortsett', 'Norwegian still reads Bokmål');
    } finally {
      delete OVERRIDES.nn;
    }
  });
});
