// Every language's table as a shopper reads it: nothing left in English, the English placeholders kept, each
// language's own punctuation, and the language a page's locale picks (src/languages/languages.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tableOfSource } from '../build/pack-translations.ts';
import { depositEn } from '../src/deposit/deposit.messages.ts';
import { frameEn } from '../src/frame/frame.messages.ts';
import { loadLanguage, msg } from '../src/internal/messages.ts';
import { LANGUAGES } from '../src/languages/languages.ts';
import { orderEn } from '../src/pay/order/order.messages.ts';
import { payEn } from '../src/pay/pay.messages.ts';
import { rampEn, rampMessages } from '../src/ramp/ramp.messages.ts';

/** The shared English, read through its lookup (messages.ts keeps the object to itself). */
const sharedEn = Object.fromEntries(
  (['loading', 'retry', 'eGone', 'eMethod', 'eRetry', 'eInput', 'eOffline'] as const).map((key) => [
    key,
    msg('en', key),
  ]),
);

/** Each part's English, by the name of its block in a language file. */
const english: Record<string, Record<string, string>> = {
  shared: sharedEn,
  ramp: rampEn,
  pay: payEn,
  order: orderEn,
  deposit: depositEn,
  frame: frameEn,
};

/** A language's messages as its source says them: part → key → message. */
function messagesOf(lang: string): Record<string, Record<string, string>> {
  const file = join(import.meta.dirname, '..', 'src', 'internal', 'lang', `${lang}.ts`);
  const table = tableOfSource(readFileSync(file, 'utf8'), file);
  return Object.fromEntries(
    Object.entries(english).map(([part, en]) => {
      const lines = table[part]?.split('\n') ?? [];
      return [
        part,
        Object.fromEntries(
          Object.keys(en)
            .sort()
            .map((key, i) => [key, lines[i] ?? '']),
        ),
      ];
    }),
  );
}

const others = LANGUAGES.filter((lang) => lang !== 'en');

/** Messages each language writes as English does, because they are its own words too. */
const sameAsEnglish: Record<string, readonly string[]> = {
  Total: ['es', 'fr', 'id', 'pt', 'ro'],
  Crypto: ['fr', 'nl'],
  'Minimum: {0}': ['cs', 'da', 'de', 'hu', 'id', 'nb', 'pl'],
  'Maximum: {0}': ['cs', 'de', 'hu'],
};

/** The placeholders of a message, sorted. */
const placeholders = (text: string) => [...text.matchAll(/\{\w+\}/g)].map(([p]) => p).sort();

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
        for (const [key, text] of Object.entries(block))
          if (text === english[part]?.[key] && !sameAsEnglish[text]?.includes(lang))
            left.push(`${lang} ${part}.${key}: ${text}`);
    assert.deepEqual(left, []);
  });

  it("keeps each English message's placeholders, each once", () => {
    for (const lang of others)
      for (const [part, block] of Object.entries(messagesOf(lang)))
        for (const [key, text] of Object.entries(block))
          assert.deepEqual(
            placeholders(text),
            placeholders(english[part]?.[key] ?? ''),
            `${lang} ${part}.${key}: ${text}`,
          );
  });

  it("writes each language's own punctuation", () => {
    const all = (lang: string) => Object.values(messagesOf(lang)).flatMap((block) => Object.values(block));
    for (const lang of others)
      for (const text of all(lang)) {
        assert.doesNotMatch(text, /\.\.\./, `${lang}: an ellipsis is one character (…): ${text}`);
        assert.doesNotMatch(text, /["']/, `${lang}: straight quotes: ${text}`);
        assert.equal(text, text.trim(), `${lang}: spaces around ${text}`);
      }
    // Japanese: full-width punctuation; Arabic: its own question mark and comma; Thai: no gendered particle.
    for (const text of all('ja'))
      assert.doesNotMatch(text, /[?!:,()]/, `ja: half-width punctuation: ${text}`);
    for (const text of all('ar')) assert.doesNotMatch(text, /[?,]/, `ar: a Latin ? or ,: ${text}`);
    for (const text of all('th')) assert.doesNotMatch(text, /ครับ|ค่ะ|คะ/, `th: a gendered particle: ${text}`);
    // Romanian: ș and ț with the comma below, not the cedilla.
    for (const text of all('ro')) assert.doesNotMatch(text, /[şţŞŢ]/, `ro: a cedilla: ${text}`);
    // Quotes around a name: each language's own.
    const quoted = (lang: string) => messagesOf(lang).ramp?.unknownCountry ?? '';
    assert.match(quoted('cs'), /„\{0\}“/);
    assert.match(quoted('pl'), /„\{0\}”/);
    assert.match(quoted('ja'), /「\{0\}」/);
    assert.match(quoted('nb'), /«\{0\}»/);
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
    // Each known once: nothing more to load.
    for (const locale of ['no-NO', 'fil', 'zh', 'en']) assert.equal(loadLanguage(locale), undefined, locale);
  });
});
