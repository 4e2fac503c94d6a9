// Deposit mode against the real backend: the customer's permanent address per chain, its QR code, copying it.
import { expect, fixture, html } from '@open-wc/testing';
import type { CryptoCheckout } from '../../src/index.ts';
import { customerToken, resetSandbox, shadowQuery, waitForEvent, waitUntil } from '../support.ts';
import { internals, mountReady, openPicker } from './checkout-helpers.ts';

/** The address field once it shows an address (`value`: that one). */
async function addressShown(el: CryptoCheckout, value?: string): Promise<HTMLInputElement> {
  const field = () => el.shadowRoot!.querySelector<HTMLInputElement>('#address');
  await waitUntil(
    () => field()?.value && (value === undefined || field()!.value === value),
    `no address ${value ?? ''} shown`,
  );
  return field()!;
}

describe('deposit mode', () => {
  beforeEach(resetSandbox);

  it('shows the address for the first chain with a QR code (as an inert image), and the same one again', async () => {
    const token = await customerToken({ customerId: 'cust-42' });
    const el = await mountReady(
      html`<crypto-checkout mode="deposit" customer-token=${token} locale="en"></crypto-checkout>`,
    );
    const address = await addressShown(el);
    expect(address.readOnly).to.equal(true);
    const qr = shadowQuery<HTMLImageElement>(el, 'img.qr');
    expect(qr.src).to.match(/^data:image\/svg\+xml/);
    expect(qr.alt).to.equal('QR code of the address');
    expect(el.shadowRoot!.querySelector('svg')).to.equal(null);
    await expect(el).to.be.accessible();

    const first = address.value;
    // The chain picker is searchable like the others: open it and pick the second chain.
    const pickChain = async (index: number) => {
      (await openPicker(el, '#chain'))[index]!.click();
      await el.updateComplete;
    };
    expect(shadowQuery(el, '#chain').getAttribute('role')).to.equal('combobox');
    await pickChain(1);
    await waitUntil(
      () => el.shadowRoot!.querySelector<HTMLInputElement>('#address')?.value !== first,
      'the address stayed',
    );
    expect((await addressShown(el)).value).to.not.equal(first);
    await pickChain(0);
    expect((await addressShown(el, first)).value).to.equal(first);
  });

  it('copies the address and announces it', async () => {
    const token = await customerToken({ customerId: 'cust-43' });
    const el = await mountReady(
      html`<crypto-checkout mode="deposit" customer-token=${token} locale="fr"></crypto-checkout>`,
    );
    await addressShown(el);
    const button = shadowQuery<HTMLButtonElement>(el, '.copy button');
    expect(button.textContent).to.equal('Copier');
    button.click();
    // Copied once the clipboard (or the selection's copy) has taken it.
    await waitUntil(
      () => shadowQuery(el, '.deposit [role="status"]').textContent === 'Copié',
      'not announced',
    );
  });

  it('shows the memo next to the address on a chain that needs one', async () => {
    const token = await customerToken({ customerId: 'cust-memo' });
    const el = await mountReady(
      html`<crypto-checkout mode="deposit" customer-token=${token} locale="en"></crypto-checkout>`,
    );
    await addressShown(el);
    expect(el.shadowRoot!.querySelector('#memo')).to.equal(null);
    // The backend's catalog lists no memo chain yet (its deposit route takes xrp): chosen here directly.
    (internals(el)._view as unknown as { _chain: string })._chain = 'xrp';
    el.requestUpdate();
    const memoField = () => el.shadowRoot!.querySelector<HTMLInputElement>('#memo');
    await waitUntil(() => memoField()?.value, 'no memo shown');
    const memo = memoField();
    expect(memo?.value).to.match(/^\d+$/);
    expect(memo!.readOnly).to.equal(true);
    expect(memo!.labels![0]!.textContent).to.equal('Memo (required)');
    await expect(el).to.be.accessible();
  });

  it('says so when no chain takes deposits, instead of loading forever', async () => {
    // A backend whose catalog has no chain: a static file standing in for GET /catalog.
    const el = await mountReady(
      html`<crypto-checkout mode="deposit" customer-token="t" locale="de"
        api="/packages/widget/test/browser/fixtures/no-chains"></crypto-checkout>`,
    );
    expect(shadowQuery(el, '.empty[role="status"]').textContent).to.equal(
      'Kein Netzwerk nimmt hier Einzahlungen an.',
    );
    expect(el.shadowRoot!.querySelector('.skeleton')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('explains a bad customer token', async () => {
    const error = waitForEvent(document, 'checkout-error');
    const el = await fixture<CryptoCheckout>(
      html`<crypto-checkout mode="deposit" customer-token="not-a-token" locale="en"></crypto-checkout>`,
    );
    expect((await error).detail.code).to.equal('TOKEN_INVALID');
    await el.updateComplete;
    expect(shadowQuery(el, '[role="alert"]').textContent).to.contain('This checkout is not available.');
    await expect(el).to.be.accessible();
  });
});
