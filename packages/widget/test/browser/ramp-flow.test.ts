// One flow, not two (issue 15): once the ramp page opens inline the form collapses into a one-line summary with
// "Change"; the catalog's failure has a way out; the phone layout shows names and addresses whole. Against the
// real backend on the sandbox.
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import type { CryptoCheckout } from '../../src/index.ts';
import {
  recordEvents,
  resetSandbox,
  setBackendDown,
  shadowQuery,
  waitForEvent,
  waitUntil,
} from '../support.ts';
import { mountReady, optionsOf, requestsTo, typeInto } from './checkout-helpers.ts';

const wallet = '0x1111111111111111111111111111111111111111';

/** Resolves once a message posted to this window before the call has been delivered (messages come in order). */
function waitForMessage(): Promise<void> {
  return new Promise((resolve) => {
    const token = `flush-${Math.random()}`;
    const on = (e: MessageEvent) => {
      if (e.data !== token) return;
      removeEventListener('message', on);
      resolve();
    };
    addEventListener('message', on);
    postMessage(token, location.origin);
  });
}

/** Waits for a quote, presses Continue and waits for the ramp page's frame. */
async function openRamp(el: CryptoCheckout): Promise<HTMLIFrameElement> {
  await waitUntil(
    () => !shadowQuery<HTMLButtonElement>(el, '[part~="button"]').disabled,
    'no quote to continue with',
  );
  const order = waitForEvent(el, 'checkout-order');
  shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
  await order;
  await el.updateComplete;
  return shadowQuery<HTMLIFrameElement>(el, 'iframe[part~="frame"]');
}

describe('one flow: the form collapses above the inline ramp page', () => {
  beforeEach(resetSandbox);

  it('buy: after Continue the amount is asked nowhere in the element, a summary line says what was sent, and Change brings the form back with the amount kept', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" fiat="EUR" locale="en" amount="60" wallet-address=${wallet}></crypto-checkout>`,
    );
    const quote = await waitForEvent(el, 'checkout-quote');
    await el.updateComplete;
    const total = [...el.shadowRoot!.querySelectorAll('[part~="quote"] dd')].at(-1)!.textContent!;
    const frame = await openRamp(el);
    expect(el.shadowRoot!.querySelector('#fiat')).to.equal(null);
    expect(el.shadowRoot!.querySelector('#crypto')).to.equal(null);
    expect(el.shadowRoot!.querySelector('[part~="button"]')).to.equal(null);
    const summary = shadowQuery(el, '[part~="summary"]');
    const symbol = quote.detail.crypto.currency.split('_')[0];
    const line = summary.querySelector('p')!.textContent!;
    expect(line).to.match(new RegExp(`^€60\\.00 → [\\d.,]+ ${symbol} · .+ · Germany$`));
    // The crypto reads as the quote's Total did, rounded for reading (a stablecoin's tens to the cent), not
    // with every decimal the quote has, and never further from the quote than that rounding.
    expect(line.startsWith(`${total} · `), `"${line}" does not start with the Total "${total}"`).to.equal(
      true,
    );
    const coins = /→ ([\d.,]+) /.exec(line)![1]!;
    expect(quote.detail.crypto.amount).to.match(/\.\d{3,}$/, 'a quote with more digits than a reader needs');
    expect(coins).to.match(/^\d{2}(\.\d{1,2})?$/);
    expect(Math.abs(Number(coins) - Number(quote.detail.crypto.amount))).to.be.at.most(0.005);
    // The summary sits above the ramp page, and the shopper is taken into that page.
    expect(summary.compareDocumentPosition(frame) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(0);
    expect(el.shadowRoot!.activeElement).to.equal(frame);
    await waitUntil(() => frame.contentDocument?.getElementById('amount-form'), 'ramp page not loaded');
    await expect(el).to.be.accessible();

    // No quote is asked while the ramp page (with its own quote) is open.
    const quotesBefore = requestsTo('/api/quotes/buy');
    const events = recordEvents(el, ['checkout-quote', 'checkout-close']);
    const change = [...summary.querySelectorAll('button')].find((b) => b.textContent === 'Change')!;
    expect(change.getAttribute('aria-describedby')).to.equal('summary');
    change.click();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('iframe')).to.equal(null);
    expect(el.shadowRoot!.querySelector('[part~="summary"]')).to.equal(null);
    const fiat = shadowQuery<HTMLInputElement>(el, '#fiat');
    expect(fiat.value).to.equal('60');
    expect(el.shadowRoot!.activeElement).to.equal(fiat);
    expect(events.events.map((e) => e.type)).to.deep.equal(['checkout-close']);
    expect((events.events[0] as CustomEvent).detail).to.deep.equal({ reason: 'user' });
    expect(requestsTo('/api/quotes/buy')).to.equal(quotesBefore);

    // A fresh quote for the kept amount, and a changed amount goes to a new ramp page.
    await waitForEvent(el, 'checkout-quote');
    const priced = waitForEvent(el, 'checkout-quote');
    await typeInto(el, '#fiat', '75');
    // Fees inside: 75 is what the shopper pays; the ramp page is asked for the amount before fees that gives it.
    const repriced = (await priced).detail;
    expect(repriced.fiat.total).to.equal('75.00');
    const again = await openRamp(el);
    expect(Number(new URL(again.src).searchParams.get('baseCurrencyAmount'))).to.equal(
      Number(repriced.fiat.amount),
    );
    expect(shadowQuery(el, '[part~="summary"] p').textContent).to.match(/^€75\.00 → /);
  });

  it('sell: the summary reads crypto sent → fiat received, and Change restores the amount typed in crypto', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="sell" country="DE" fiat="EUR" locale="en"></crypto-checkout>`,
    );
    const quote = waitForEvent(el, 'checkout-quote');
    await typeInto(el, '#crypto', '50');
    const { detail } = await quote;
    const frame = await openRamp(el);
    expect(frame).to.exist;
    expect(el.shadowRoot!.querySelector('#crypto')).to.equal(null);
    const symbol = detail.crypto.currency.split('_')[0];
    expect(shadowQuery(el, '[part~="summary"] p').textContent).to.match(
      new RegExp(`^50 ${symbol} → €[\\d.,]+ · .+ · Germany$`),
    );
    shadowQuery<HTMLButtonElement>(el, '[part~="summary"] button').click();
    await el.updateComplete;
    const crypto = shadowQuery<HTMLInputElement>(el, '#crypto');
    expect(crypto.value).to.equal('50');
    expect(el.shadowRoot!.activeElement).to.equal(crypto);
  });

  it('the ramp page closing itself brings the form back too', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="64" wallet-address=${wallet}></crypto-checkout>`,
    );
    const frame = await openRamp(el);
    await waitUntil(() => frame.contentDocument?.getElementById('close'), 'ramp page not loaded');
    (frame.contentDocument!.getElementById('close') as HTMLButtonElement).click();
    await waitUntil(() => el.shadowRoot!.querySelector('#fiat'), 'the form did not come back');
    expect(shadowQuery<HTMLInputElement>(el, '#fiat').value).to.equal('64');
  });

  it('the inline ramp page is shown whole on a phone: the frame takes the height the page posts, step by step, and starts near it', async () => {
    await setViewport({ width: 390, height: 844 });
    try {
      const el = await mountReady(
        html`<crypto-checkout mode="buy" country="DE" locale="en" amount="64" wallet-address=${wallet}></crypto-checkout>`,
      );
      const frame = await openRamp(el);
      // Before the page says its height the frame holds a phone's usual one, not a small box that then grows.
      const reserved = frame.getBoundingClientRect().height;
      expect(reserved).to.be.at.least(560);
      const page = () => frame.contentDocument?.body;
      const posted = () => Number.parseInt(frame.style.height, 10);
      const fits = () => !!page() && posted() === Math.ceil(page()!.getBoundingClientRect().height);
      await waitUntil(fits, 'the frame did not take the page’s height');
      const amountStep = posted();
      expect(Math.abs(frame.getBoundingClientRect().height - amountStep)).to.be.below(1);
      expect(frame.contentDocument!.scrollingElement!.scrollHeight, 'the page scrolls inside').to.be.at.most(
        Math.ceil(frame.getBoundingClientRect().height),
      );
      expect(
        Math.abs(amountStep - reserved),
        `the frame jumped from ${reserved} to ${amountStep}`,
      ).to.be.below(80);

      // The next step is shorter: the frame follows.
      await waitUntil(() => !frame.contentDocument!.querySelector<HTMLButtonElement>('#continue')!.disabled);
      frame.contentDocument!.querySelector<HTMLButtonElement>('#continue')!.click();
      await waitUntil(() => fits() && posted() < amountStep, 'the frame kept the last step’s height');
      const emailStep = posted();
      // A height from elsewhere than the ramp page's own window is not taken.
      window.postMessage({ type: 'SWAPPED_RESIZE', height: 2000 }, location.origin);
      await waitForMessage();
      await el.updateComplete;
      expect(posted()).to.equal(emailStep);
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('buy: when the ramp page says the order went through, the summary says so without Change and checkout-complete names the order', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="62" wallet-address=${wallet}></crypto-checkout>`,
    );
    const frame = await openRamp(el);
    const page = () => frame.contentDocument!;
    const button = (id: string) => page().getElementById(id) as HTMLButtonElement | null;
    await waitUntil(() => button('continue') && !button('continue')!.disabled, 'no quote on the ramp page');
    button('continue')!.click();
    // No e-mail was passed to the ramp: it asks for one first.
    await waitUntil(() => page().getElementById('email')?.checkVisibility(), 'no e-mail step');
    (page().getElementById('email') as HTMLInputElement).value = 'shopper@example.com';
    (page().getElementById('email-form') as HTMLFormElement).requestSubmit();
    await waitUntil(() => button('pay')?.checkVisibility(), 'no payment step');
    const complete = waitForEvent(el, 'checkout-complete');
    button('pay')!.click();
    const { detail } = await complete;
    expect(detail.kind).to.equal('buy');
    expect(detail.status).to.equal('completed');
    expect(detail.orderId).to.be.a('string').and.not.equal('');
    await el.updateComplete;
    const summary = shadowQuery(el, '[part~="summary"]');
    expect(summary.querySelector('button')).to.equal(null);
    expect(shadowQuery(el, '[part~="status"]').textContent).to.equal('Done. Thank you!');
  });

  it('in a modal the form stays as it is under the dialog: there is nothing to collapse', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="61" display="modal" wallet-address=${wallet}></crypto-checkout>`,
    );
    await openRamp(el);
    expect(shadowQuery<HTMLDialogElement>(el, 'dialog').open).to.equal(true);
    expect(el.shadowRoot!.querySelector('[part~="summary"]')).to.equal(null);
    expect(shadowQuery<HTMLInputElement>(el, '#fiat').value).to.equal('61');
  });
});

// The browser keeps a catalog for 60 s (Cache-Control): each test asks for a country no other test file asks for,
// so that its catalog request really goes out while the backend is down.
describe('the catalog cannot be loaded', () => {
  beforeEach(resetSandbox);
  afterEach(() => setBackendDown(false));

  it('says it is the connection, and "Try again" loads the form', async () => {
    await setBackendDown(true);
    const failed = waitForEvent(document, 'checkout-error');
    const el = await fixture<CryptoCheckout>(
      html`<crypto-checkout mode="buy" country="AT" locale="en" amount="50"></crypto-checkout>`,
    );
    expect((await failed).detail.code).to.equal('NETWORK_ERROR');
    await waitUntil(() => el.shadowRoot!.querySelector('[role="alert"] button'), 'no way to try again');
    const retry = shadowQuery<HTMLButtonElement>(el, '[role="alert"] button');
    expect(shadowQuery(el, '[role="alert"]').textContent).to.contain('No connection');
    expect(retry.textContent).to.equal('Try again');
    await expect(el).to.be.accessible();
    await setBackendDown(false);
    const ready = waitForEvent(el, 'checkout-ready');
    retry.click();
    await ready;
    await el.updateComplete;
    expect(shadowQuery<HTMLInputElement>(el, '#fiat').value).to.equal('50');
    expect(el.shadowRoot!.querySelector('[role="alert"] button')).to.equal(null);
  });

  it("loads it by itself when the connection comes back (the window's online event)", async () => {
    await setBackendDown(true);
    const failed = waitForEvent(document, 'checkout-error');
    const el = await fixture<CryptoCheckout>(
      html`<crypto-checkout mode="sell" country="NL" locale="en"></crypto-checkout>`,
    );
    await failed;
    await waitUntil(() => el.shadowRoot!.querySelector('[role="alert"] button'), 'no error shown');
    await setBackendDown(false);
    const ready = waitForEvent(el, 'checkout-ready');
    window.dispatchEvent(new Event('online'));
    await ready;
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('#crypto')).to.exist;
  });
});

describe('on a phone (390 × 844)', () => {
  before(() => setViewport({ width: 390, height: 844 }));
  after(() => setViewport({ width: 800, height: 600 }));
  beforeEach(resetSandbox);

  it('shows the country name whole, its list as wide as the form, and the wallet address whole', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="US" locale="en" amount="100" style="margin: 0 8px"></crypto-checkout>`,
    );
    const form = shadowQuery(el, 'form');
    const country = shadowQuery<HTMLInputElement>(el, '#country');
    expect(country.value).to.equal('United States');
    expect(country.scrollWidth).to.be.at.most(country.clientWidth);
    expect(country.getBoundingClientRect().width).to.equal(form.getBoundingClientRect().width);
    country.focus();
    await typeInto(el, '#country', 'u');
    await optionsOf(el, 'country');
    const list = shadowQuery(el, '#country-list');
    expect(list.hidden).to.equal(false);
    expect(list.getBoundingClientRect().width).to.equal(form.getBoundingClientRect().width);
    // Options' names fit on one line each.
    const option = shadowQuery(el, '#country-list [role="option"]');
    expect(option.getBoundingClientRect().height).to.be.below(48);
    country.blur();
    await el.updateComplete;

    const address = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdqbc1qar0srrr7xfkvy';
    await typeInto(el, '#wallet', address);
    const field = shadowQuery<HTMLTextAreaElement>(el, '#wallet');
    expect(field.value).to.equal(address);
    expect(field.scrollWidth).to.be.at.most(field.clientWidth);
    expect(field.scrollHeight).to.be.at.most(field.clientHeight + 1);
    expect(field.getBoundingClientRect().right).to.be.at.most(form.getBoundingClientRect().right);
    await expect(el).to.be.accessible();
  });
});

describe('a country that is not served', () => {
  beforeEach(resetSandbox);

  it('is named in its field (with its flag) but never offered in the list', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="KP" locale="en-US"></crypto-checkout>`,
    );
    const country = shadowQuery<HTMLInputElement>(el, '#country');
    expect(country.value).to.equal('North Korea');
    expect(shadowQuery<HTMLImageElement>(el, '.combo-input img.flag').alt).to.equal('North Korea');
    country.focus();
    await typeInto(el, '#country', 'north');
    const rows = await optionsOf(el, 'country');
    expect(rows.map((r) => r.textContent!.trim())).to.not.include('North Korea');
  });
});
