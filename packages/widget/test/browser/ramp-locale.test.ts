// Buy in the element's locale: its words, its numbers and decimal mark (kept in the field being typed in), the
// countries and currencies named and sorted as it does, and how fresh a quote is.
import { expect, html } from '@open-wc/testing';
import { resetSandbox, shadowQuery, waitForEvent, waitUntil } from '../support.ts';
import { mountReady, pickerOptions, requestsTo, typeInto } from './checkout-helpers.ts';

describe('buy: the locale', () => {
  beforeEach(resetSandbox);

  it('switches language and number format with locale', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="1234.5"></crypto-checkout>`,
    );
    expect(shadowQuery(el, 'label[for="fiat"]').textContent).to.equal('You pay (EUR)');
    expect(shadowQuery(el, '.methods small').textContent).to.match(/\d\.\d+%/);
    el.locale = 'de';
    await el.updateComplete;
    expect(shadowQuery(el, 'label[for="fiat"]').textContent).to.equal('Sie zahlen (EUR)');
    expect(shadowQuery(el, '[part~="button"]').textContent).to.equal('Weiter');
    expect(shadowQuery(el, '.methods small').textContent)
      .to.match(/ · \d+,\d\d\s€–\d{1,3}(\.\d{3})*,\d\d\s€$/)
      .and.match(/\d,\d+\s%/);
    el.locale = 'pt-BR';
    await el.updateComplete;
    expect(shadowQuery(el, 'label[for="fiat"]').textContent).to.equal('Você paga (EUR)');
    expect(shadowQuery(el, '.base').getAttribute('lang')).to.equal('pt-BR');
  });

  it('re-writes the amounts with the new decimal separator on a locale switch, but not the field being typed in', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="1234.5"></crypto-checkout>`,
    );
    await waitForEvent(el, 'checkout-quote');
    await el.updateComplete;
    const fiat = shadowQuery<HTMLInputElement>(el, '#fiat');
    const crypto = shadowQuery<HTMLInputElement>(el, '#crypto');
    expect(fiat.value).to.equal('1234.5');
    expect(crypto.value).to.match(/^\d+\.\d+$/);
    const quotes = requestsTo('/api/quotes');
    el.locale = 'de';
    await el.updateComplete;
    expect(fiat.value).to.equal('1234,5');
    expect(crypto.value).to.match(/^\d+,\d+$/);
    el.locale = 'fr';
    await el.updateComplete;
    expect(fiat.value).to.equal('1234,5');
    // The same amounts: no new quote is asked for (none is on its way, none was sent).
    expect(shadowQuery(el, '[part~="quote"]').getAttribute('aria-busy')).to.equal('false');
    expect(requestsTo('/api/quotes')).to.equal(quotes);
    // While the shopper types in a field, it keeps what they typed.
    fiat.focus();
    await typeInto(el, '#fiat', '99.5');
    el.locale = 'en';
    await el.updateComplete;
    expect(fiat.value).to.equal('99.5');
    el.locale = 'de';
    await el.updateComplete;
    expect(fiat.value).to.equal('99.5');
    fiat.blur();
    // A new amount and locale at once: the amount as it is meant (1.234, not 1234), in the new locale's way.
    el.amount = '1.234';
    el.locale = 'en';
    await el.updateComplete;
    expect(fiat.value).to.equal('1.234');
    el.amount = '2.345';
    el.locale = 'de';
    await el.updateComplete;
    expect(fiat.value).to.equal('2,345');
  });

  for (const [locale, us, de, euro] of [
    ['es', 'Estados Unidos', 'Alemania', 'euro'],
    ['de', 'Vereinigte Staaten', 'Deutschland', 'Euro'],
  ] as const) {
    it(`names countries and currencies in the element's locale (${locale}), sorted as it sorts`, async () => {
      const el = await mountReady(
        html`<crypto-checkout mode="buy" country="DE" locale=${locale}></crypto-checkout>`,
      );
      expect(shadowQuery<HTMLInputElement>(el, '#country').value).to.equal(de);
      const countries = await pickerOptions(el, '#country');
      const names = countries.map(([, name]) => name);
      const byFlag = (code: string) => countries.find(([f]) => f === code)?.[1];
      expect(byFlag('US')).to.equal(us);
      expect(byFlag('DE')).to.equal(de);
      expect(names).to.not.include('United States');
      expect(names).to.deep.equal([...names].sort(new Intl.Collator(locale).compare));
      const currencies = await pickerOptions(el, '#currency');
      expect(currencies.map(([, name]) => name)).to.include(`EUR ${euro}`);
      await expect(el).to.be.accessible();
    });
  }

  it("says a quote that has just come is fresh in the element's language, then how old it is", async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="de"></crypto-checkout>`,
    );
    const quoted = waitForEvent(el, 'checkout-quote');
    await typeInto(el, '#fiat', '73');
    await quoted;
    await el.updateComplete;
    const fresh = () => shadowQuery(el, '.fresh').textContent;
    expect(fresh()).to.equal('Aktualisiert jetzt');
    // The age moves on each second while the quote is shown.
    await waitUntil(() => fresh() !== 'Aktualisiert jetzt', 'the age never moved');
    expect(fresh()).to.match(/^Aktualisiert vor \d+/);
  });
});
