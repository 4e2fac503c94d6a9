// The widget's pure helpers (no DOM): amount parsing and formatting, limits, the message table.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tableOfSource } from '../build/pack-translations.ts';
import type { Method } from '../src/api/types.ts';
import { depositEn, depositMessages } from '../src/deposit/deposit.messages.ts';
import { frameEn, frameMessages } from '../src/frame/frame.messages.ts';
import { formatMoney, validLocale } from '../src/internal/locale.ts';
import { errorKey, loadLanguage, type Messages, msg } from '../src/internal/messages.ts';
import { LANGUAGES } from '../src/languages/languages.ts';
import { orderEn, orderMessages } from '../src/pay/order/order.messages.ts';
import { payEn, payMessages } from '../src/pay/pay.messages.ts';
import {
  formatAgo,
  formatCrypto,
  formatPercent,
  localNames,
  parseAmount,
  toInputValue,
} from '../src/ramp/format.ts';
import { checkLimits, limitRange } from '../src/ramp/limits.ts';
import { rampEn, rampMessages } from '../src/ramp/ramp.messages.ts';

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
  it("reads what shoppers type in the locale's decimal mark, the other one grouping thousands", () => {
    assert.equal(parseAmount('12.5', 'en'), '12.5');
    assert.equal(parseAmount('12,5', 'de'), '12.5');
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

  it('refuses the decimal mark of another locale, both ways', () => {
    assert.equal(parseAmount('12,50', 'en'), null);
    assert.equal(parseAmount('12,5', 'en'), null);
    assert.equal(parseAmount('12.50', 'de'), null);
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
    assert.match(formatAgo(5, 'en'), /5\s?s(ec)?\.? ago/);
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
    assert.equal(rampMessages('de', 'min', '7,00 €'), 'Minimum: 7,00 €');
    assert.equal(rampMessages('xx', 'continue'), 'Continue');
    assert.equal(frameMessages('FR', 'close'), 'Fermer');
    assert.equal(depositMessages('de', 'copy'), 'Kopieren');
    assert.equal(payMessages('de', 'retry'), 'Erneut versuchen');
    assert.equal(orderMessages('fr', 'paid'), 'Payé. Merci !');
    assert.equal(msg('es', 'loading'), 'Cargando…');
  });

  it('says each message of each part in every language, with its placeholder where the English has one', async () => {
    const shared = {
      loading: msg('en', 'loading'),
      retry: msg('en', 'retry'),
      eGone: msg('en', 'eGone'),
      eMethod: msg('en', 'eMethod'),
      eRetry: msg('en', 'eRetry'),
      eInput: msg('en', 'eInput'),
      eOffline: msg('en', 'eOffline'),
    };
    const parts: [Record<string, string>, Messages<string>][] = [
      [shared, msg as Messages<string>],
      [rampEn, rampMessages as Messages<string>],
      [payEn, payMessages as Messages<string>],
      [orderEn, orderMessages as Messages<string>],
      [depositEn, depositMessages as Messages<string>],
      [frameEn, frameMessages as Messages<string>],
    ];
    for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
      await loadLanguage(lang);
      for (const [en, say] of parts)
        for (const [key, english] of Object.entries(en)) {
          const text = say(lang, key, '<arg>');
          assert.ok(text.trim(), `${lang} ${key}: an empty message`);
          assert.equal(text.includes('<arg>'), english.includes('{0}'), `${lang} ${key}: its placeholder`);
        }
    }
    assert.equal(msg('de', 'eInput'), 'Bitte prüfen Sie Ihre Angaben.');
  });

  it("builds each language's table as the sources make it, with no key in it", async () => {
    for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
      const file = join(import.meta.dirname, '..', 'src', 'internal', 'lang', `${lang}.ts`);
      const built = tableOfSource(readFileSync(file, 'utf8'), file);
      const { default: source } = (await import(file)) as { default: Record<string, string> };
      assert.deepEqual(built, source, lang);
      assert.equal(built.ramp?.split('\n')[0], source.ramp?.split('\n')[0]);
      assert.doesNotMatch(JSON.stringify(built), /paymentMethod|eOffline/, `${lang}: a key in the table`);
    }
  });

  it('maps every error code to a human message', () => {
    assert.equal(errorKey('TOKEN_EXPIRED'), 'eGone');
    assert.equal(errorKey('NOT_FOUND'), 'eGone');
    assert.equal(errorKey('METHOD_UNAVAILABLE'), 'eMethod');
    assert.equal(errorKey('UPSTREAM_TIMEOUT'), 'eRetry');
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
