// Time to first quote: the quote the attributes fully specify leaves beside the catalog (unless the catalog says
// it is out of bounds), and what follows is quoted at once.
import { expect, fixture, html } from '@open-wc/testing';
import type { CryptoCheckout } from '../../src/index.ts';
import { recordEvents, resetSandbox, shadowQuery, waitForEvent } from '../support.ts';
import { internals, moneyEn, mountReady, termsOf } from './checkout-helpers.ts';

/** The page's requests whose URL contains `part`, started after `since` (Resource Timing). */
const requestsSince = (part: string, since: number) =>
  performance
    .getEntriesByType('resource')
    .filter((e): e is PerformanceResourceTiming => e.name.includes(part) && e.startTime >= since);

describe('time to first quote', () => {
  beforeEach(resetSandbox);

  it('sends the quote the attributes specify beside the catalog, and shows it once both are in', async () => {
    const since = performance.now();
    const seen: string[] = [];
    const ready = waitForEvent(document, 'checkout-ready').then(() => seen.push('ready'));
    const quote = waitForEvent(document, 'checkout-quote').then((e) => {
      seen.push('quote');
      return e.detail;
    });
    // FR: a catalog this page has not fetched before, so it comes over the network.
    const el = await fixture<CryptoCheckout>(
      html`<crypto-checkout mode="buy" country="FR" fiat="EUR" crypto="BTC" payment-method="creditcard" amount="64" locale="en"></crypto-checkout>`,
    );
    const [, detail] = await Promise.all([ready, quote]);
    const [catalog] = requestsSince('/api/catalog', since);
    const quotes = requestsSince('/api/quotes/buy', since);
    expect(quotes).to.have.length(1);
    expect(quotes[0]!.startTime, 'quote request started before the catalog arrived').to.be.below(
      catalog!.responseEnd,
    );
    expect(seen).to.deep.equal(['ready', 'quote']);
    expect(detail.fiat).to.include({ currency: 'EUR', total: '64.00' });
    await el.updateComplete;
    expect(shadowQuery(el, '[part~="quote"]').textContent).to.contain(`€${detail.fiat.total}`);
    expect(shadowQuery<HTMLInputElement>(el, '#crypto').value).to.equal(detail.crypto.amount);
  });

  it('shows the limit message instead of an early quote the catalog says is out of bounds', async () => {
    const events = recordEvents(document, ['checkout-quote', 'checkout-error']);
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="FR" fiat="EUR" crypto="BTC" payment-method="creditcard" amount="3" locale="en"></crypto-checkout>`,
    );
    // The early quote has been answered (or refused): had the element taken it, it would have said so by now.
    await internals(el)._head?.answer.catch(() => {});
    await el.updateComplete;
    events.stop();
    const { min } = await termsOf('FR', 'EUR', { method: 'creditcard' });
    expect(shadowQuery(el, '#amount-msg').textContent).to.equal(`Minimum: ${moneyEn(min!, 'EUR')}`);
    expect(el.shadowRoot!.querySelector('[part~="quote"] dl')!.textContent!.trim()).to.equal('');
    expect(events.events.map((e) => e.type)).to.deep.equal([]);
  });

  it('quotes at once after the catalog when nothing was typed (no debounce)', async () => {
    const since = performance.now();
    const quote = waitForEvent(document, 'checkout-quote');
    await fixture<CryptoCheckout>(
      html`<crypto-checkout mode="buy" country="DE" amount="52" locale="en"></crypto-checkout>`,
    );
    await quote;
    const [catalog] = requestsSince('/api/catalog', since);
    const [request] = requestsSince('/api/quotes/buy', since);
    expect(request!.startTime - catalog!.responseEnd).to.be.below(300);
  });

  it('sends a programmatic amount change at once', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" amount="53" locale="en"></crypto-checkout>`,
    );
    await waitForEvent(el, 'checkout-quote');
    const changed = performance.now();
    const next = waitForEvent(el, 'checkout-quote');
    el.amount = '54';
    expect((await next).detail.fiat.total).to.equal('54.00');
    const [request] = requestsSince('/api/quotes/buy', changed);
    expect(request!.startTime - changed).to.be.below(300);
  });
});
