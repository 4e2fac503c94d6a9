// The widget's pure helpers (no DOM): amount parsing and formatting, limits, the message table.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tableOfSource } from '../build/pack-translations.ts';
import type { Method } from '../src/api/types.ts';
import { depositMessages } from '../src/deposit/deposit.messages.ts';
import { frameMessages } from '../src/frame/frame.messages.ts';
import { loadLanguage } from '../src/internal/language-loading.ts';
import { formatMoney, validLocale } from '../src/internal/locale.ts';
import { errorKey, languageOf, type Message, msg, OVERRIDES } from '../src/internal/messages.ts';
import { format, LANGUAGES } from '../src/languages/languages.ts';
import { orderMessages } from '../src/pay/order/order.messages.ts';
import { payMessages } from '../src/pay/pay.messages.ts';
import {
  formatAgo,
  formatCrypto,
  formatPercent,
  localNames,
  parseAmount,
  toInputValue,
} from '../src/ramp/format.ts';
import { checkLimits, limitRange } from '../src/ramp/limits.ts';
import { rampMessages } from '../src/ramp/ramp.messages.ts';
import { english } from './english.ts';
import { isPseudo, PSEUDO_LOCALE, pseudoTranslation } from './pseudo-locale.ts';

describe('localNames', () => {
  const countries = [
    { code: 'US', name: 'United States' },
    { code: 'DE', name: 'Germany' },
    { code: 'AT', name: 'Austria' },
  ];
  it("names regions in the locale and sorts them as it sorts, the backend's name where Intl has none", () => {
    assert.deepEqual(localNames(countries, 'es', 'region'), [
      { code: 'DE', name: 'Alemania' },
      { code: 'AT', name: 'Austria' },
      { code: 'US', name: 'Estados Unidos' },
    ]);
    assert.deepEqual(
      localNames(countries, 'de', 'region').map((c) => c.name),
      ['Deutschland', 'Österreich', 'Vereinigte Staaten'],
    );
    assert.deepEqual(localNames([{ code: 'AA', name: 'Private use' }], 'de', 'region'), [
      { code: 'AA', name: 'Private use' },
    ]);
  });
  it('names currencies, and keeps the list as it came for a code Intl cannot read', () => {
    assert.equal(localNames([{ code: 'EUR', name: 'Euro' }], 'es', 'currency')[0]?.name, 'euro');
    const odd = [{ code: 'NOT-A-CODE', name: 'Odd' }];
    assert.deepEqual(localNames(odd, 'es', 'currency'), odd);
  });
});

describe('parseAmount', () => {
  it("reads what shoppers type in the locale's decimal mark, the other one grouping thousands", async () => {
    assert.equal(parseAmount('12.5', 'en'), '12.5');
    assert.equal(parseAmount('12,5', 'de'), '12.5');
    // Where Intl writes Arabic numerals (ar-EG; ar in WebKitGTK) the field shows `1234٫5`; an Arabic keyboard types
    // ١٢٣٤٫٥. The page's language reads them (its code loads before the form shows).
    for (const locale of ['ar-EG', 'fa']) await loadLanguage(locale);
    assert.equal(parseAmount(toInputValue('1234.5', 'ar-EG'), 'ar-EG'), '1234.5');
    assert.equal(parseAmount('١٬٢٣٤٫٥', 'ar-EG'), '1234.5');
    assert.equal(parseAmount('۱۰۰', 'fa'), '100');
    assert.equal(parseAmount('12,50', 'de'), '12.50');
    assert.equal(parseAmount('12,50', 'pt-BR'), '12.50');
    assert.equal(parseAmount(' 1 234,56 ', 'fr'), '1234.56');
    assert.equal(parseAmount('1.234,56', 'de'), '1234.56');
    assert.equal(parseAmount('1,234.56', 'en'), '1234.56');
    assert.equal(parseAmount('1,000', 'en'), '1000');
    assert.equal(parseAmount('1.000', 'de'), '1000');
    assert.equal(parseAmount('.5', 'en'), '0.5');
    assert.equal(parseAmount('007', 'en'), '7');
    assert.equal(parseAmount('0.00012345', 'en'), '0.00012345');
  });

  it("reads another locale's decimal mark where it cannot be misread (not three digits after it)", () => {
    assert.equal(parseAmount('12,50', 'en'), '12.50');
    assert.equal(parseAmount('12,5', 'en'), '12.5');
    assert.equal(parseAmount('12.50', 'de'), '12.50');
    assert.equal(
      parseAmount('1,000', 'en'),
      '1000',
      'three digits: a thousands group where the locale groups so',
    );
    assert.equal(parseAmount('0,500', 'en'), null, 'three digits after a 0: neither reading is safe');
  });

  it('refuses mixed marks in the other order than the locale writes them', () => {
    assert.equal(parseAmount('1.234,56', 'en'), null);
    assert.equal(parseAmount('1,234.56', 'de'), null);
  });

  it('reads exponents, so a huge amount can be told its maximum', () => {
    assert.equal(parseAmount('1e12', 'en'), '1000000000000');
    assert.equal(parseAmount('1.5e3', 'en'), '1500');
    assert.equal(parseAmount('1,5e3', 'de'), '1500');
    assert.equal(parseAmount('2E-2', 'en'), '0.02');
    assert.equal(parseAmount('1e999', 'en'), null);
  });

  it('refuses what is not a positive amount', () => {
    for (const bad of ['', 'abc', '0', '0.00', '-5', '0e5', 'e5', '1.2.3', '1,2,3', '12,5,0']) {
      assert.equal(parseAmount(bad, 'en'), null, bad);
    }
  });
});

describe('formatting', () => {
  it('formats money in the locale, keeping the backend decimal', () => {
    assert.equal(formatMoney('49.9', 'EUR', 'en'), '€49.90');
    // Another currency in the same locale is not written with the first one's formatter.
    assert.equal(formatMoney('49.9', 'USD', 'en'), '$49.90');
    assert.equal(formatMoney('1234.5', 'EUR', 'de').replace(/\s/g, ' '), '1.234,50 €');
    assert.equal(formatMoney('10', 'BRL', 'pt-BR').replace(/\s/g, ' '), 'R$ 10,00');
  });

  it('falls back for codes Intl does not know as currencies', () => {
    assert.equal(formatMoney('1.5', 'USDC', 'en'), '1.5 USDC');
  });

  it('formats crypto to 4 significant digits or the cents, whichever is more, never adding digits', () => {
    assert.equal(formatCrypto('0.000123456789', 'BTC', 'en'), '0.0001235 BTC');
    assert.equal(formatCrypto('112.972777', 'USDC', 'en'), '112.97 USDC');
    assert.equal(formatCrypto('64.884077', 'USDC', 'en'), '64.88 USDC');
    assert.equal(formatCrypto('1.23456789', 'BTC', 'en'), '1.235 BTC');
    assert.equal(formatCrypto('12345.678901', 'USDC', 'en'), '12,345.68 USDC');
    assert.equal(formatCrypto('1.5', 'ETH', 'de'), '1,5 ETH');
    assert.equal(formatCrypto('50', 'USDC', 'en'), '50 USDC');
  });

  it('formats fee percentages in the locale', () => {
    assert.equal(formatPercent('1.75', 'en'), '1.75%');
    assert.equal(formatPercent('3.5', 'de').replace(/\s/g, ' '), '3,5 %');
    assert.equal(formatPercent('2', 'fr').replace(/\s/g, ' '), '2 %');
  });

  it('shows backend decimals in the locale way for inputs', () => {
    assert.equal(toInputValue('0.5', 'fr'), '0,5');
    assert.equal(toInputValue('0.5', 'en'), '0.5');
  });

  it('accepts only locales Intl can use', () => {
    assert.equal(validLocale('pt-br'), 'pt-BR');
    assert.equal(validLocale('not a locale!'), 'en');
    assert.equal(validLocale(''), 'en');
  });

  it('says how fresh a quote is', () => {
    assert.equal(formatAgo(5, 'en'), '5 seconds ago');
    assert.equal(formatAgo(0, 'en'), 'now');
  });
});

describe('checkLimits', () => {
  const card: Method = {
    id: 'creditcard',
    name: 'Card',
    feePercent: '1.75',
    fixedFee: '0.35',
    min: '7',
    max: '100000',
    limits: { currency: 'EUR', min: '7', max: '100000' },
    terms: [],
    currencies: ['EUR', 'USD'],
    icon: null,
    iconLight: null,
    isDefault: true,
  };
  /** As the backend sends it: limits as totals in each currency, converted ones approximate. */
  const withTerms: Method = {
    ...card,
    terms: [
      { currency: 'EUR', fixedFee: '0.35', min: '7.60', max: '101750.35', converted: false },
      { currency: 'USD', fixedFee: '0.40', min: '8.25', max: '110000.00', converted: true },
    ],
  };

  it('flags amounts outside the method limits in the limit currency', () => {
    assert.deepEqual(checkLimits(card, 'EUR', '6.99'), {
      code: 'AMOUNT_TOO_LOW',
      limit: '7',
      currency: 'EUR',
    });
    assert.deepEqual(checkLimits(card, 'EUR', '100000.01'), {
      code: 'AMOUNT_TOO_HIGH',
      limit: '100000',
      currency: 'EUR',
    });
    assert.equal(checkLimits(card, 'EUR', '7'), null);
    assert.equal(checkLimits(card, 'EUR', '100000'), null);
  });

  it('leaves other currencies to the backend', () => {
    assert.equal(checkLimits(card, 'USD', '1'), null);
    assert.equal(checkLimits(undefined, 'EUR', '1'), null);
  });

  it("checks the backend's totals in the currency, and leaves converted (approximate) ones to the backend", () => {
    assert.deepEqual(checkLimits(withTerms, 'EUR', '7.59'), {
      code: 'AMOUNT_TOO_LOW',
      limit: '7.60',
      currency: 'EUR',
    });
    assert.equal(checkLimits(withTerms, 'EUR', '7.60'), null);
    assert.equal(checkLimits(withTerms, 'USD', '1'), null);
  });
});

describe('messages', () => {
  it('speaks English before any other language loads, and each other language once loaded', async () => {
    assert.equal(rampMessages('es-ES', 'continue'), 'Continue');
    assert.equal(loadLanguage('en-GB'), undefined);
    await loadLanguage('xx');
    assert.equal(loadLanguage('xx'), undefined, 'a language without a table: known once its list has loaded');
    assert.equal(rampMessages('xx', 'continue'), 'Continue');
    await loadLanguage('es-ES');
    assert.equal(loadLanguage('es'), undefined, 'loaded once');
    assert.equal(rampMessages('es-ES', 'continue'), 'Continuar');
  });

  it('has every key in every language, none empty, each part also giving the shared messages', async () => {
    for (const lang of LANGUAGES) await loadLanguage(lang);
    // Every language file has its loader, and English needs none.
    const files = readdirSync(join(import.meta.dirname, '..', 'src', 'internal', 'lang')).map((f) =>
      f.slice(0, -3),
    );
    assert.deepEqual([...LANGUAGES].sort(), ['en', ...files].sort());
    assert.equal(rampMessages('es-ES', 'continue'), 'Continuar');
    assert.equal(payMessages('pt-BR', 'payCrypto'), 'Pagar com cripto');
    assert.equal(rampMessages('de', 'min', { amount: '7,00 €' }), 'Minimum: 7,00 €');
    assert.equal(rampMessages('xx', 'continue'), 'Continue');
    assert.equal(frameMessages('fr-CA', 'close'), 'Fermer');
    assert.equal(depositMessages('de', 'copy'), 'Kopieren');
    assert.equal(payMessages('de', 'retry'), 'Erneut versuchen');
    assert.equal(orderMessages('fr', 'paid'), 'Payé. Merci\u202f!');
    assert.equal(msg('es', 'loading'), 'Cargando…');
  });

  const forms = (m: Message) => (typeof m === 'string' ? [m] : Object.values(m));
  const names = (text: string) => new Set([...text.matchAll(/\{(\w+)\}/g)].map(([, name]) => name));

  it("has each message of each part in every language, using the English's arguments and no other", async () => {
    for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
      await loadLanguage(lang);
      for (const [part, en] of Object.entries(english)) {
        const keys = Object.keys(en).sort();
        const table = (await import(`../src/internal/lang/${lang}.ts`)).default[part] ?? [];
        assert.equal(table.length, keys.length, `${lang} ${part}: a message for each key`);
        keys.forEach((key, i) => {
          const said = table[i] as Message;
          const theirs = forms(said);
          const ours = new Set(forms(en[key] as Message).flatMap((text) => [...names(text)]));
          for (const text of theirs) {
            assert.ok(text.trim(), `${lang} ${part}.${key}: an empty message`);
            for (const name of names(text)) assert.ok(ours.has(name), `${lang} ${part}.${key}: {${name}}`);
          }
          const other = typeof said === 'string' ? said : said.other;
          for (const name of ours)
            if (name !== 'count') assert.ok(names(other).has(name), `${lang} ${part}.${key}: no {${name}}`);
        });
      }
    }
    assert.equal(msg('de', 'eInput'), 'Bitte prüfen Sie Ihre Angaben.');
  });

  it('has every key of every part in the pseudo-locale, each message accented and longer', () => {
    for (const [part, en] of Object.entries(english)) {
      const block = pseudoTranslation[part as keyof typeof pseudoTranslation] as Record<string, Message>;
      assert.deepEqual(Object.keys(block).sort(), Object.keys(en).sort(), part);
      for (const [key, message] of Object.entries(block))
        for (const text of forms(message)) {
          const bare = (s: string) => s.replace(/\{\w+\}/g, '').length;
          const original = Math.max(...forms(en[key] as Message).map(bare));
          assert.ok(
            isPseudo(text) && !/[a-z]{2}/.test(text.replace(/\{\w+\}/g, '')),
            `${part}.${key}: ${text}`,
          );
          assert.ok(bare(text) >= original * 1.3, `${part}.${key}: ${text} is not longer`);
        }
    }
  });

  it("picks the plural form of the count by each language's rules, and puts named arguments where they go", () => {
    const arabic = {
      zero: 'لا عناصر',
      one: 'عنصر واحد',
      two: 'عنصران',
      few: '{count} عناصر',
      many: '{count} عنصرًا',
      other: '{count} عنصر',
    };
    assert.deepEqual(
      [0, 1, 2, 3, 11, 100].map((count) => format(arabic, 'ar', { count })),
      ['لا عناصر', 'عنصر واحد', 'عنصران', '3 عناصر', '11 عنصرًا', '100 عنصر'],
    );
    const polish = {
      one: '{count} minuta',
      few: '{count} minuty',
      many: '{count} minut',
      other: '{count} minuty',
    };
    assert.deepEqual(
      [1, 2, 5, 22, 25, 1.5].map((count) => format(polish, 'pl', { count })),
      ['1 minuta', '2 minuty', '5 minut', '22 minuty', '25 minut', '1.5 minuty'],
    );
    // English's `one` is Polish's `one` only: 21 is `many` in Polish, `other` in English.
    assert.equal(format({ one: '{count} minute', other: '{count} minutes' }, 'en', { count: 1 }), '1 minute');
    assert.equal(
      format({ one: '{count} minute', other: '{count} minutes' }, 'en', { count: 21 }),
      '21 minutes',
    );
    // Japanese has one form: `one` is never picked, a plain string is enough.
    assert.equal(format({ one: '{count} 分 (one)', other: '{count} 分' }, 'ja', { count: 1 }), '1 分');
    assert.equal(format('{count} 分', 'ja', { count: 1 }), '1 分');
    // A form the language's rules pick but the message lacks falls back to `other`.
    assert.equal(format({ one: 'jedna', other: '{count} inne' }, 'pl', { count: 5 }), '5 inne');
    assert.equal(
      format('{country} wird nicht bedient, {choice} schon.', 'de', { country: 'Kuba', choice: 'Spanien' }),
      'Kuba wird nicht bedient, Spanien schon.',
    );
    assert.equal(format('Hallo {name}', 'de'), 'Hallo {name}', 'an argument not given stays visible');
  });

  it("takes the page's own messages over the shipped table, and the shipped table and English for the rest", async () => {
    await loadLanguage('de');
    assert.equal(languageOf('ko-KR'), 'en');
    assert.equal(languageOf('fil'), 'en', 'Filipino is not Finnish');
    assert.equal(languageOf('de-AT'), 'de');
    try {
      Object.assign(OVERRIDES, {
        de: { ramp: { continue: 'Zur Zahlung' } },
        ko: { ramp: { continue: '계속' }, shared: { retry: '다시 시도' } },
      });
      assert.equal(rampMessages('de-AT', 'continue'), 'Zur Zahlung');
      assert.equal(rampMessages('de-AT', 'change'), 'Ändern', 'the rest from the shipped table');
      // A language of the page's own is one once the element asks for it (each update does).
      await loadLanguage('ko-KR');
      assert.equal(languageOf('ko-KR'), 'ko');
      assert.equal(rampMessages('ko-KR', 'continue'), '계속');
      assert.equal(rampMessages('ko-KR', 'retry'), '다시 시도', 'a shared message through a part');
      assert.equal(rampMessages('ko-KR', 'change'), 'Change', 'English for what the page left out');
      Object.assign(OVERRIDES, { [PSEUDO_LOCALE.split('-')[0] as string]: pseudoTranslation });
      await loadLanguage(PSEUDO_LOCALE);
      assert.ok(isPseudo(rampMessages(PSEUDO_LOCALE, 'min', { amount: '7,00 €' })));
      assert.match(rampMessages(PSEUDO_LOCALE, 'min', { amount: '7,00 €' }), /7,00 €/);
    } finally {
      for (const lang of Object.keys(OVERRIDES)) delete OVERRIDES[lang];
    }
  });

  it("builds each language's table as the sources make it, with no key in it", async () => {
    for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
      const file = join(import.meta.dirname, '..', 'src', 'internal', 'lang', `${lang}.ts`);
      const built = tableOfSource(readFileSync(file, 'utf8'), file);
      const { default: source } = (await import(file)) as { default: Record<string, Message[]> };
      assert.deepEqual(built, source, lang);
      assert.ok(built.ramp?.length);
      assert.doesNotMatch(JSON.stringify(built), /paymentMethod|eOffline/, `${lang}: a key in the table`);
    }
    const plural = "export default translation({ ramp: { a: { one: 'x', other: 'y' }, b: 'z' } });";
    assert.deepEqual(tableOfSource(plural), { ramp: [{ one: 'x', other: 'y' }, 'z'] });
    assert.throws(() => tableOfSource("export default translation({ ramp: { a: { one: 'x' } } });"), /other/);
  });

  it('maps every error code to a human message', () => {
    assert.equal(errorKey('TOKEN_EXPIRED'), 'eGone');
    assert.equal(errorKey('NOT_FOUND'), 'eGone');
    assert.equal(errorKey('METHOD_UNAVAILABLE'), 'eMethod');
    assert.equal(errorKey('UPSTREAM_TIMEOUT'), 'eUnavailable');
    assert.equal(errorKey('UPSTREAM_ERROR'), 'eUnavailable');
    assert.equal(errorKey('RATE_LIMITED'), 'eRetry');
    assert.equal(errorKey('NETWORK_ERROR'), 'eOffline');
    assert.equal(errorKey('VALIDATION_FAILED'), 'eInput');
    assert.equal(errorKey('FORBIDDEN'), 'eInput');
  });
});

describe('limitRange', () => {
  const money = (amount: string, currency: string) => formatMoney(amount, currency, 'en');
  it('shows both bounds, the one a method has, or none: a missing limit never reads as 0', () => {
    const eur = { currency: 'EUR', converted: false };
    assert.equal(limitRange({ ...eur, min: '7.00', max: '100.00' }, money), ' · €7.00–€100.00');
    assert.equal(limitRange({ ...eur, min: '7.00', max: null }, money), ' · ≥ €7.00');
    assert.equal(limitRange({ ...eur, min: null, max: '100.00' }, money), ' · ≤ €100.00');
    assert.equal(limitRange({ ...eur, min: null, max: null }, money), '');
  });

  it('marks converted limits with ≈', () => {
    const usd = { currency: 'USD', converted: true };
    assert.equal(limitRange({ ...usd, min: '8.25', max: '110000.00' }, money), ' · ≈ $8.25–$110,000.00');
    assert.equal(limitRange({ ...usd, min: '8.25', max: null }, money), ' · ≥ ≈ $8.25');
  });
});
