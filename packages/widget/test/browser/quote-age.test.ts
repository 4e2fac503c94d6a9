// The quote's age ("Updated 5 seconds ago") in every language, as each engine's Intl writes it: never a negative
// number ("-5 s", what the narrow style wrote in French, Norwegian, Romanian and Swedish) nor a clipped word.
import { expect } from '@open-wc/testing';
import { loadLanguage } from '../../src/internal/language-loading.ts';
import { LANGUAGES } from '../../src/languages/languages.ts';
import { formatAgo } from '../../src/ramp/format.ts';
import { rampMessages } from '../../src/ramp/ramp.messages.ts';

/** `text`'s digits as Latin ones (Arabic-Indic and Persian too), to find the number in it. */
const latin = (text: string) =>
  text.replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) & 15));

describe("the quote's age", () => {
  it('reads as a time past in every language, with its number and a word, never as a negative number', async () => {
    for (const lang of LANGUAGES) {
      await loadLanguage(lang);
      for (const seconds of [1, 2, 5, 21, 59, 125]) {
        const age = formatAgo(seconds, lang);
        const line = rampMessages(lang, 'updated', { age });
        const what = `${lang} ${seconds} s: "${line}"`;
        // The number, but where a language says one or two in words (Arabic: "ثانية واحدة", "ثانيتين").
        if (seconds > 2) expect(latin(age), what).to.contain(String(seconds));
        // A minus sign, a hyphen or a dash before a figure: the past written as a negative number.
        expect(latin(age), what).not.to.match(/[-\u2212\u2010-\u2015]\s*\d/);
        // A word (three letters, or a character of a script without spaces), not an abbreviation alone.
        expect(age, what).to.match(/\p{L}{3}|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Thai}]/u);
        expect(line, what).to.contain(age);
        expect(line, `${what}: an argument left`).not.to.match(/\{\w+\}/);
      }
    }
  });

  it('is the language’s "now" for a fresh quote, not "0 seconds ago"', async () => {
    for (const lang of LANGUAGES) {
      await loadLanguage(lang);
      expect(formatAgo(0, lang), lang).to.not.match(/\d/);
    }
  });
});
