// Money the shopper can trust (issue 15), against the real backend on the sandbox: the amount typed on the fiat
// side is what is paid (buy) or received (sell), fees inside, and the ramp page charges or pays out exactly the
// total the widget showed, whichever field was typed in; fees and limits read in the chosen currency.
import { expect, html } from '@open-wc/testing';
import type { Quote } from '../../src/api/types.ts';
import type { CryptoCheckout } from '../../src/index.ts';
import { resetSandbox, setClock, shadowQuery, waitForEvent, waitUntil } from '../support.ts';
import { mountReady, typeInto } from './checkout-helpers.ts';

const wallet = '0x2222222222222222222222222222222222222222';

/** The label of an amount field and the total line of the quote, as the shopper reads them. */
function shown(el: CryptoCheckout) {
  const label = (id: string) => shadowQuery(el, `label[for="${id}"]`).textContent?.trim() ?? '';
  const total = shadowQuery(el, '[part~="quote"] dl > div:last-child dd').textContent ?? '';
  return { fiatLabel: label('fiat'), fiat: shadowQuery<HTMLInputElement>(el, '#fiat').value, total };
}

/** Types an amount, waits for its quote, and returns the quote. */
async function quoteFor(el: CryptoCheckout, field: '#fiat' | '#crypto', text: string): Promise<Quote> {
  const quote = waitForEvent(el, 'checkout-quote');
  await typeInto(el, field, text);
  const { detail } = await quote;
  await el.updateComplete;
  return detail;
}

/** Continue, then the ramp page's figure (buy: the total charged; sell: what the shopper receives). */
async function rampPageFigure(el: CryptoCheckout, side: 'buy' | 'sell'): Promise<string> {
  const order = waitForEvent(el, 'checkout-order');
  shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
  await order;
  await el.updateComplete;
  const frame = shadowQuery<HTMLIFrameElement>(el, 'iframe');
  const figure = () => frame.contentDocument?.getElementById(side === 'buy' ? 'total' : 'receive');
  await waitUntil(() => /\d/.test(figure()?.textContent ?? ''), 'the ramp page shows no total');
  return figure()!.textContent!.trim();
}

describe('fees inside: what is typed is what is paid or received', () => {
  // The sandbox's prices drift with its clock, as a market's do: pinned, the ramp page prices at the moment the
  // quote was made, however long the page takes to open (a sell priced by crypto moved a cent under load).
  beforeEach(async () => {
    await resetSandbox();
    await setClock({ now: Date.now() });
  });
  afterEach(() => setClock({ reset: true }));

  it('buy, fiat typed: "You pay (EUR) 100" is a total of €100.00, and the ramp page charges 100.00 EUR', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" wallet-address=${wallet}></crypto-checkout>`,
    );
    const quote = await quoteFor(el, '#fiat', '100');
    expect(quote.fiat.total).to.equal('100.00');
    expect(Number(quote.fiat.amount)).to.be.below(100, 'the fees are inside the 100');
    const { fiatLabel, fiat, total } = shown(el);
    expect(fiatLabel).to.equal('You pay (EUR)');
    expect(fiat).to.equal('100');
    expect(total).to.match(/^€100\.00 → /);
    expect(await rampPageFigure(el, 'buy')).to.equal('100.00 EUR');
  });

  it('buy, crypto typed: the fiat field and the total show what the ramp page charges', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" wallet-address=${wallet}></crypto-checkout>`,
    );
    const quote = await quoteFor(el, '#crypto', '40');
    expect(quote.input).to.equal('crypto');
    const paid = quote.fiat.total;
    expect(Number(paid)).to.be.above(Number(quote.fiat.amount), 'fees on top of the crypto’s price');
    const { fiat, total } = shown(el);
    expect(fiat).to.equal(paid);
    expect(total).to.match(new RegExp(`^€${paid.replace('.', '\\.')} → 40 `));
    expect(await rampPageFigure(el, 'buy')).to.equal(`${paid} EUR`);
  });

  it('sell, fiat typed: "You get (EUR) 100" is €100.00 received, and the ramp page pays out 100.00 EUR', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="sell" country="DE" locale="en"></crypto-checkout>`,
    );
    const quote = await quoteFor(el, '#fiat', '100');
    expect(quote.fiat.total).to.equal('100.00');
    expect(Number(quote.fiat.amount)).to.be.above(100, 'the crypto sold covers the fees');
    const { fiatLabel, fiat, total } = shown(el);
    expect(fiatLabel).to.equal('You get (EUR)');
    expect(fiat).to.equal('100');
    expect(total).to.match(/ → €100\.00$/);
    expect(await rampPageFigure(el, 'sell')).to.equal('100.00 EUR');
  });

  it('sell, crypto typed: the fiat field and the total show what the ramp page pays out', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="sell" country="DE" locale="en"></crypto-checkout>`,
    );
    const quote = await quoteFor(el, '#crypto', '80');
    const received = quote.fiat.total;
    expect(Number(received)).to.be.below(Number(quote.fiat.amount), 'fees out of the value sold');
    const { fiat, total } = shown(el);
    expect(fiat).to.equal(received);
    expect(total).to.match(new RegExp(` → (≈ )?€${received.replace('.', '\\.')}$`));
    expect(await rampPageFigure(el, 'sell')).to.equal(`${received} EUR`);
  });
});

describe('fees and limits in the chosen currency', () => {
  beforeEach(resetSandbox);

  it('with USD chosen, the method line reads "≈ $…" figures and no "€"', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="US" fiat="USD" locale="en"></crypto-checkout>`,
    );
    const lines = [...el.shadowRoot!.querySelectorAll('.method small, .terms')].map(
      (n) => n.textContent ?? '',
    );
    expect(lines.length).to.be.above(0);
    for (const line of lines) {
      expect(line).to.match(/%.*\+ ≈ \$\d+\.\d\d · (≈ \$[\d,]+\.\d\d–\$[\d,]+\.\d\d|[≥≤] ≈ \$)/);
      expect(line).not.to.contain('€');
    }
    await expect(el).to.be.accessible();
  });
});
