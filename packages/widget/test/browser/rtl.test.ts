// Right to left: the element in Arabic (and in any language under dir="rtl" on an ancestor) lays itself out
// mirrored, read from the boxes the shopper sees (getBoundingClientRect), while amounts, codes and addresses keep
// reading left to right (their own direction, and the figure before its code on screen).
import { expect, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { CryptoCheckout } from '../../src/index.ts';
import { customerToken, resetSandbox, shadowQuery, waitForEvent, waitUntil } from '../support.ts';
import { mountReady, openPicker } from './checkout-helpers.ts';

const box = (e: Element) => e.getBoundingClientRect();
const direction = (e: Element) => getComputedStyle(e).direction;

/**
 * Where, left to right on screen, the first occurrence of `text` starts inside `e`'s text (a Range's box): the order
 * a reader's eye meets the parts of an amount in.
 */
function leftOf(e: Element, text: string): number {
  const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.textContent!.indexOf(text);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + text.length);
    return range.getBoundingClientRect().left;
  }
  throw new Error(`"${text}" is not in ${e.outerHTML.slice(0, 200)}`);
}

/**
 * `text` with Arabic-Indic digits and separators as Latin ones (WebKitGTK writes Arabic amounts so, Chromium and
 * Firefox with Latin digits) and without bidi marks and isolates: what the shopper reads, to compare.
 */
const plain = (text: string) =>
  text
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/\u066b/g, '.')
    .replace(/\u066c/g, ',')
    .replace(/[\u061c\u200e\u200f\u2066-\u2069]/g, '');

/** The first figure of `text` as written (any digits), to find it on screen. */
const figureOf = (text: string) => /[\d\u0660-\u0669][\d\u0660-\u0669.,\u066b\u066c]*/.exec(text)![0];

/** An amount isolated left to right: its own direction is ltr and its figure shows left of its code. */
function expectLeftToRight(e: Element, figure: string, code: string, what: string): void {
  expect(direction(e), `${what}: direction`).to.equal('ltr');
  expect(leftOf(e, figure), `${what}: "${figure}" left of "${code}" in "${e.textContent}"`).to.be.lessThan(
    leftOf(e, code),
  );
}

/** The box of `e`'s text (a label's box takes the field's whole width: its words are where they are). */
function textBox(e: Element): DOMRect {
  const range = document.createRange();
  range.selectNodeContents(e);
  return range.getBoundingClientRect();
}

/** The label's words are at the field's right (right to left) or left edge, within a pixel or two. */
function expectLabelAtStart(el: CryptoCheckout, id: string, rtl: boolean): void {
  const label = textBox(shadowQuery(el, `label[for="${id}"]`));
  const field = box(shadowQuery(el, `#${id}`));
  if (rtl) {
    expect(Math.abs(label.right - field.right), `#${id}'s label at its right`).to.be.lessThan(2);
    expect(label.left, `#${id}'s label from its right`).to.be.greaterThan(field.left + 1);
  } else expect(Math.abs(label.left - field.left), `#${id}'s label at its left`).to.be.lessThan(2);
}

describe('right to left', () => {
  beforeEach(async () => {
    sessionStorage.clear();
    await resetSandbox();
  });

  it('buy in Arabic: the form mirrors (labels, pickers, methods, quote rows) and tabs from right to left; amounts stay left to right', async () => {
    // Generous: WebKit on a machine busy with other runs took over 8 s for a first quote.
    const quote = waitForEvent(document, 'checkout-quote', { timeout: 25000 });
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" fiat="EUR" locale="ar" amount="1234.5" style="width:600px"></crypto-checkout>`,
      25000,
    );
    await quote;
    await el.updateComplete;
    expect(direction(shadowQuery(el, '.base'))).to.equal('rtl');
    for (const id of ['country', 'currency', 'fiat', 'wallet']) expectLabelAtStart(el, id, true);
    // Side by side, the first field (country) is on the right, and Tab goes to the one on its left.
    const country = shadowQuery<HTMLInputElement>(el, '#country');
    const currency = shadowQuery<HTMLInputElement>(el, '#currency');
    expect(box(currency).right, 'currency left of country').to.be.lessThan(box(country).left);
    country.focus();
    await sendKeys({ press: 'Tab' });
    expect(el.shadowRoot!.activeElement, 'Tab from country').to.equal(currency);
    // The country's flag sits inside its field at the right, where the text starts.
    const flag = box(shadowQuery(el, '.combo-input img.flag'));
    expect(flag.left, 'the flag in the right half of the field').to.be.greaterThan(
      box(country).left + box(country).width / 2,
    );
    // The quote: each label on the right, its amount on the left, written left to right.
    const rows = [...el.shadowRoot!.querySelectorAll('[part~="quote"] dl div')];
    expect(rows.length).to.be.greaterThan(2);
    for (const row of rows) {
      const [dt, dd] = [row.querySelector('dt')!, row.querySelector('dd')!];
      expect(box(dd).right, `"${dd.textContent}" left of "${dt.textContent}"`).to.be.lessThan(box(dt).left);
      expect(direction(dd.querySelector('bdi')!), `"${dd.textContent}"`).to.equal('ltr');
    }
    const rate = rows[0]!.querySelector('bdi')!;
    const symbol = /^1 (\S+) = /.exec(plain(rate.textContent!))?.[1];
    expect(symbol, `the rate "${rate.textContent}"`).to.be.a('string');
    expectLeftToRight(rate, figureOf(rate.textContent!), symbol!, 'the rate');
    // The total "1,234.50 € → 0.0123 BTC": what is paid first, on the left, each figure before its code.
    const total = rows.at(-1)!.querySelector('bdi')!;
    expect(plain(total.textContent!)).to.match(/^1,234\.50\s€ → [\d.,]+ \S+$/);
    expectLeftToRight(total, figureOf(total.textContent!), symbol!, 'the total');
    expectLeftToRight(total, '€', '→', 'the total');
  });

  it('the methods mirror: the radio and logo on the right, the fees and limits on the left and left to right', async () => {
    // The United States in euros: four methods, shown as radios.
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="US" fiat="EUR" locale="ar" amount="100" style="width:600px"></crypto-checkout>`,
    );
    const method = shadowQuery(el, '.method');
    const radio = box(method.querySelector('input')!);
    const name = box(method.querySelector('span')!);
    const terms = method.querySelector('small bdi')!;
    expect(radio.left, 'the radio right of the name').to.be.greaterThan(name.right);
    expect(box(terms).right, 'the terms left of the name').to.be.lessThan(name.left);
    expectLeftToRight(terms, /[%٪]/.exec(terms.textContent!)![0], '€', 'the fees');
    // Each amount of the line keeps its place: the fee (after +) left of the limits (after ·).
    expect(leftOf(terms, '+')).to.be.lessThan(leftOf(terms, '·'));
    // Arrows move down the list (a vertical group, as in a left-to-right language).
    const radios = [...el.shadowRoot!.querySelectorAll<HTMLInputElement>('.method input')];
    const from = radios.findIndex((r) => r.checked);
    radios[from]!.focus();
    await sendKeys({ press: 'ArrowDown' });
    await waitUntil(
      () => radios[(from + 1) % radios.length]!.checked,
      'ArrowDown did not pick the next method',
    );
  });

  it('the picker in Arabic: the list under its field, the flags on the right, the current choice marked and in sight', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="ar" amount="100" style="width:600px"></crypto-checkout>`,
    );
    const country = shadowQuery<HTMLInputElement>(el, '#country');
    const options = await openPicker(el, '#country');
    await el.updateComplete;
    const list = shadowQuery(el, '#country-list');
    expect(Math.abs(box(list).right - box(country).right), 'the list under its field').to.be.lessThan(2);
    const current = options.find((o) => o.classList.contains('cur'))!;
    expect(current, 'the current country is marked').to.exist;
    expect(current.getAttribute('aria-selected'), 'and active').to.equal('true');
    expect(country.getAttribute('aria-activedescendant')).to.equal(current.id);
    // The current choice is scrolled into the list's sight.
    await waitUntil(
      () => box(current).top >= box(list).top - 1 && box(current).bottom <= box(list).bottom + 1,
      'the current country is out of the list’s sight',
    );
    const flag = box(current.querySelector('img.flag')!);
    expect(flag.left, 'the flag at the option’s right').to.be.greaterThan(
      box(current).left + box(current).width / 2,
    );
    // Its check mark is at the line's end: on the left.
    const mark = getComputedStyle(current, '::after');
    expect(mark.content).to.match(/✓/);
    expect(direction(current)).to.equal('rtl');
    await expect(el).to.be.accessible();
  });

  it('dir="rtl" on an ancestor mirrors the element in any language; without it, English reads left to right', async () => {
    const wrapper: HTMLElement = await mountReady(
      html`<div dir="rtl"><crypto-checkout mode="buy" country="DE" locale="en" amount="100" style="width:600px"></crypto-checkout></div>`,
    );
    const inner = wrapper.querySelector<CryptoCheckout>('crypto-checkout')!;
    await inner.updateComplete;
    expect(direction(shadowQuery(inner, '.base'))).to.equal('rtl');
    expectLabelAtStart(inner, 'country', true);
    expectLabelAtStart(inner, 'fiat', true);
    const ltr = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="100"></crypto-checkout>`,
    );
    expect(direction(shadowQuery(ltr, '.base'))).to.equal('ltr');
    expectLabelAtStart(ltr, 'country', false);
  });

  it('deposit in Arabic: the address and memo read left to right, the label and Copy mirror', async () => {
    const token = await customerToken({ customerId: 'rtl-1' });
    const el = await mountReady(
      html`<crypto-checkout mode="deposit" customer-token=${token} locale="ar" style="width:600px"></crypto-checkout>`,
    );
    await waitUntil(() => el.shadowRoot!.querySelector('#address'), 'no address');
    await el.updateComplete;
    const address = shadowQuery<HTMLTextAreaElement>(el, '#address');
    expect(direction(address)).to.equal('ltr');
    expect(address.value).to.match(/^\S+$/);
    expectLabelAtStart(el, 'address', true);
    const copy = box(shadowQuery(el, '.copy button'));
    expect(copy.right, 'Copy left of the address').to.be.lessThan(box(address).left + 1);
    await expect(el).to.be.accessible();
  });

  it('pay in Arabic: the price on the left, left to right; the modal’s close button on the left of its title', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="pay" product="ember-mug" locale="ar" display="modal" style="width:600px"></crypto-checkout>`,
    );
    const price = shadowQuery(el, '.price');
    const name = shadowQuery(el, '.name');
    expect(direction(price)).to.equal('ltr');
    expect(box(price).right, 'the price left of the name').to.be.lessThan(box(name).left);
    expectLeftToRight(price, figureOf(price.textContent!), '€', 'the price');
    const order = waitForEvent(el, 'checkout-order', { timeout: 20000 });
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    await order;
    await el.updateComplete;
    const dialog = shadowQuery<HTMLDialogElement>(el, 'dialog[part~="dialog"]');
    await waitUntil(() => dialog.open, 'the modal did not open');
    expect(direction(dialog)).to.equal('rtl');
    const title = box(shadowQuery(el, '#dialog-title'));
    const close = box(shadowQuery(el, 'dialog .close'));
    expect(close.right, 'the close button left of the title').to.be.lessThan(title.left);
    expect(title.right, 'the title at the dialog’s right').to.be.greaterThan(box(dialog).right - 24);
    // The price in the title reads left to right too: its figure left of its currency.
    const heading = shadowQuery(el, '#dialog-title');
    expect(leftOf(heading, figureOf(heading.textContent!)), heading.textContent!).to.be.lessThan(
      leftOf(heading, '€'),
    );
    dialog.close();
  });
});
