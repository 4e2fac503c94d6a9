// Every mode and state of the element at 390 px in one language: nothing left in English (but amounts, codes and
// names, the same in every language, and words a language shares with English) and nothing cut or sticking out.
// The languages-390-*.test.ts files each run a few languages (`describeAt390`), split so that no file runs near
// web-test-runner's time for one file, in WebKit on a loaded machine most.
import { expect } from '@open-wc/testing';
import '../../src/define.ts';
import type { CryptoCheckout } from '../../src/index.ts';
import type { Message } from '../../src/internal/messages.ts';
import type { Table } from '../../src/internal/translation.ts';
import { english } from '../english.ts';
import { PSEUDO_LOCALE, pseudoTranslation } from '../pseudo-locale.ts';
import {
  customerToken,
  payOrder,
  resetSandbox,
  setBackendDown,
  shadowQuery,
  waitForEvent,
  waitUntil,
} from '../support.ts';

const texts = (m: Message | undefined) =>
  m === undefined ? [] : typeof m === 'string' ? [m] : Object.values(m);

/** A language's own messages, part → key → every text of the message: the shipped table, or the pseudo-locale's. */
async function ownWords(locale: string): Promise<Record<string, Record<string, string[]>>> {
  const lang = locale.split('-')[0] as string;
  const table: Table =
    locale === PSEUDO_LOCALE
      ? Object.fromEntries(
          Object.entries(pseudoTranslation).map(([part, block]) => [
            part,
            Object.keys(block)
              .sort()
              .map((key) => (block as Record<string, Message>)[key] as Message),
          ]),
        )
      : ((await import(`../../src/internal/lang/${lang}.ts`)) as { default: Table }).default;
  return Object.fromEntries(
    Object.entries(english).map(([part, en]) => [
      part,
      Object.fromEntries(
        Object.keys(en)
          .sort()
          .map((key, i) => [key, texts(table[part]?.[i])]),
      ),
    ]),
  );
}

/** `chunk` as a word (or words) of `text`: not inside a longer word. */
const hasWords = (text: string, chunk: string) =>
  new RegExp(`(^|[^\\p{L}])${chunk.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}])`, 'u').test(text);

/**
 * What the shopper reads in `el`: each text shown (in an element with a box) and each accessible name or hint
 * written in an attribute.
 */
function shownTexts(el: CryptoCheckout): string[] {
  const root = el.shadowRoot!;
  const found: string[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    const text = node.textContent?.trim();
    if (!text || !parent || parent.closest('style') || !parent.getClientRects().length) continue;
    if (getComputedStyle(parent).visibility === 'hidden') continue;
    found.push(text);
  }
  for (const e of root.querySelectorAll('*'))
    for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
      const value = e.getAttribute(name)?.trim();
      if (value) found.push(value);
    }
  return found;
}

/** The English left in `el`: each English message's words shown where the language's own message has other words. */
function englishLeft(el: CryptoCheckout, own: Record<string, Record<string, string[]>>): string[] {
  const shown = shownTexts(el);
  const left: string[] = [];
  for (const [part, en] of Object.entries(english))
    for (const [key, message] of Object.entries(en))
      for (const chunk of message.split(/\{\w+\}/).map((c) => c.trim().replace(/^[.:,]\s*|[.:,]$/g, ''))) {
        // A word or two of three letters or more: shorter ones (`+`, `→`) are no language's.
        if (chunk.length < 3 || !/\p{L}{3}/u.test(chunk)) continue;
        if (own[part]?.[key]?.some((theirs) => hasWords(theirs, chunk))) continue;
        for (const text of shown)
          if (hasWords(text, chunk)) left.push(`${part}.${key} "${chunk}" in "${text}"`);
      }
  return left;
}

/** What is cut or sticks out of the 390 px `el` is in: a box past its edges, or text an element hides (scrolled or clipped). */
function clipped(el: CryptoCheckout): string[] {
  // The 390 px column the element is in (the element itself could grow past it).
  const host = el.parentElement!.getBoundingClientRect();
  const found: string[] = [];
  const name = (e: Element) =>
    `<${e.localName}${e.id ? `#${e.id}` : ''}${e.className && typeof e.className === 'string' ? `.${e.className.split(' ')[0]}` : ''}> "${(e.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)}"`;
  for (const e of [el, ...el.shadowRoot!.querySelectorAll('*')]) {
    if (e.localName === 'style' || !e.getClientRects().length) continue;
    const box = e.getBoundingClientRect();
    // Visually hidden helpers (a 1 px box) and the hidden copy that sizes a growing field are not read on screen.
    if (box.width <= 1 || box.height <= 1) continue;
    const style = getComputedStyle(e);
    if (style.visibility === 'hidden') continue;
    if (box.left < host.left - 1 || box.right > host.right + 1)
      found.push(
        `${name(e)} sticks out: ${Math.round(box.left - host.left)}…${Math.round(box.right - host.left)} of ${Math.round(host.width)}`,
      );
    // A field's value scrolls by design; any other box that hides what does not fit cuts its text.
    if (['input', 'textarea', 'select', 'iframe', 'img'].includes(e.localName)) continue;
    const hides = (overflow: string) => overflow !== 'visible';
    if ((hides(style.overflowX) || style.textOverflow === 'ellipsis') && e.scrollWidth > e.clientWidth + 1)
      found.push(`${name(e)} cut: ${e.scrollWidth} px of text in ${e.clientWidth}`);
    if (hides(style.overflowY) && e.scrollHeight > e.clientHeight + 1 && style.overflowY !== 'auto')
      found.push(`${name(e)} cut: ${e.scrollHeight} px high in ${e.clientHeight}`);
  }
  return found;
}

/** A 390 px column at the top of the page, holding each element of a test. */
function column(): HTMLDivElement {
  const div = document.createElement('div');
  div.style.cssText = 'width:390px;display:grid;gap:8px';
  document.body.append(div);
  return div;
}

/** `<crypto-checkout>` with `attributes`, in its own 390 px box in `parent`. */
function checkout(parent: HTMLElement, attributes: Record<string, string>): CryptoCheckout {
  const el = document.createElement('crypto-checkout');
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  parent.append(el);
  return el;
}

/** Generous: WebKit on a machine busy with other runs takes seconds for a form and its first quote. */
const long = { timeout: 30_000 };

/** The states a shopper meets, each an element and what says it has settled. */
async function states(parent: HTMLElement, locale: string, translations: string | undefined) {
  const base = { locale, ...(translations ? { translations } : {}) };
  const token = await customerToken({ customerId: `cust-390-${locale}` });
  const quoted = (el: CryptoCheckout) => () =>
    el.shadowRoot?.querySelector('.fresh') &&
    el.shadowRoot.querySelector('[part~="quote"]')?.getAttribute('aria-busy') === 'false';
  const said = (selector: string) => (el: CryptoCheckout) => () =>
    (el.shadowRoot?.querySelector(selector)?.textContent ?? '').trim().length > 0;
  const make = (
    what: string,
    attributes: Record<string, string>,
    settled: (el: CryptoCheckout) => () => unknown,
  ) => {
    const el = checkout(parent, { ...base, ...attributes });
    return { what, el, settled: settled(el) };
  };
  return [
    make('buy with a quote', { mode: 'buy', country: 'DE', fiat: 'EUR', amount: '50' }, quoted),
    make('sell with a quote', { mode: 'sell', country: 'DE', fiat: 'EUR', amount: '50' }, quoted),
    make(
      'buy under the minimum',
      { mode: 'buy', country: 'FR', fiat: 'EUR', crypto: 'BTC', 'payment-method': 'creditcard', amount: '3' },
      said('#amount-msg'),
    ),
    make('buy without an amount', { mode: 'buy', country: 'DE', fiat: 'EUR' }, said('#amount-msg')),
    make('a country not served', { mode: 'buy', country: 'KP' }, said('[part~="switch"]')),
    make(
      'sell: no method for the currency',
      { mode: 'sell', country: 'BR', fiat: 'USD' },
      said('[part~="switch"]'),
    ),
    make('pay', { mode: 'pay', product: 'ember-mug' }, said('[part~="button"]')),
    make('deposit', { mode: 'deposit', 'customer-token': token }, said('.deposit [part~="button"]')),
  ];
}

/** Fails with every English string and every cut or protruding box of `el`, named by `what`. */
function expectLocalisedAndWhole(
  el: CryptoCheckout,
  what: string,
  own: Record<string, Record<string, string[]>>,
) {
  expect(englishLeft(el, own), `${what}: English left`).to.deep.equal([]);
  expect(clipped(el), `${what}: cut at 390 px`).to.deep.equal([]);
}

/**
 * Every mode and state in `locale` at 390 px: the forms (buy and sell with a quote, an amount under the minimum,
 * no amount yet, a country not served, a currency without a method, pay, deposit), an order being paid (its status
 * and its page's frame), then underpaid (the rest and the time left) and overpaid (the excess), and the network
 * failing (the error and its retry). `translations`: the page's own messages (the pseudo-locale's), as JSON.
 */
async function checkLanguageAt390(locale: string, translations?: string): Promise<void> {
  const own = await ownWords(locale);
  const parent = column();
  try {
    const shown = await states(parent, locale, translations);
    for (const { what, el, settled } of shown) {
      await waitUntil(settled, `${locale} ${what}: never settled`, long);
      await el.updateComplete;
      expect(el.language, `${locale} ${what}: language`).to.equal(locale.split('-')[0]);
      expectLocalisedAndWhole(el, `${locale} ${what}`, own);
    }
    // An order being paid: its status and its page's frame (the pay element above).
    const pay = shown.find((s) => s.what === 'pay')!.el;
    const order = waitForEvent(pay, 'checkout-order', long);
    shadowQuery<HTMLButtonElement>(pay, '[part~="button"]').click();
    const orderId = (await order).detail.orderId!;
    await waitUntil(
      () => pay.shadowRoot?.querySelector('[part~="status"]'),
      `${locale}: no order status`,
      long,
    );
    await pay.updateComplete;
    expectLocalisedAndWhole(pay, `${locale} an order being paid`, own);
    // The money gone wrong: an underpayment's rest and time left, then (paid again, past what was due) the excess.
    await payOrder(orderId, 'underpaid');
    await waitUntil(
      () => pay.shadowRoot?.querySelector('[part~="time-left"]'),
      `${locale}: no time left to pay the rest`,
      long,
    );
    await pay.updateComplete;
    expectLocalisedAndWhole(pay, `${locale} an order underpaid`, own);
    await payOrder(orderId, 'overpaid');
    await waitUntil(
      () =>
        pay.shadowRoot?.querySelector('.status.overpaid') &&
        pay.shadowRoot.querySelector('[part~="settlement"]'),
      `${locale}: no excess shown`,
      long,
    );
    await pay.updateComplete;
    expectLocalisedAndWhole(pay, `${locale} an order overpaid`, own);
  } finally {
    parent.remove();
  }
  // The network failing before the form: the error and the way to try again.
  const offline = column();
  await setBackendDown(true);
  try {
    // A country no element above asked for: its catalog is not in the page's cache.
    const el = checkout(offline, {
      mode: 'buy',
      country: 'AT',
      locale,
      ...(translations ? { translations } : {}),
    });
    await waitUntil(() => el.shadowRoot?.querySelector('.error button'), `${locale}: no error`, long).catch(
      (e) => {
        throw new Error(
          `${e.message}: ${el.shadowRoot?.innerHTML.replace(/<!--[^>]*-->/g, '').slice(0, 600)}`,
        );
      },
    );
    await el.updateComplete;
    expectLocalisedAndWhole(el, `${locale} offline`, own);
  } finally {
    await setBackendDown(false);
    offline.remove();
  }
}

/** Each language's name in English, for the tests' titles. */
const names: Record<string, string> = {
  ar: 'Arabic',
  cs: 'Czech',
  da: 'Danish',
  de: 'German',
  es: 'Spanish',
  fi: 'Finnish',
  fr: 'French',
  hu: 'Hungarian',
  id: 'Indonesian',
  it: 'Italian',
  ja: 'Japanese',
  nb: 'Norwegian Bokmål',
  nl: 'Dutch',
  pl: 'Polish',
  pt: 'Portuguese',
  ro: 'Romanian',
  sv: 'Swedish',
  th: 'Thai',
  tr: 'Turkish',
  vi: 'Vietnamese',
};

/** The tests of `locales` (shipped languages' codes, or `PSEUDO_LOCALE`): each renders every mode and state at 390 px. */
export function describeAt390(locales: string[]): void {
  describe(`every mode and state at 390 px, in ${locales.join(', ')}`, () => {
    beforeEach(resetSandbox);
    for (const locale of locales)
      it(
        locale === PSEUDO_LOCALE
          ? "in the pseudo-locale (accented, a third longer, given as the page's own messages)"
          : `in ${names[locale] ?? locale} (${locale})`,
        async function () {
          this.timeout(180_000);
          await (locale === PSEUDO_LOCALE
            ? checkLanguageAt390(locale, JSON.stringify({ qps: pseudoTranslation }))
            : checkLanguageAt390(locale));
        },
      );
  });
}
