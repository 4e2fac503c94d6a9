// The npm entries in a browser: `index` only exports (a merchant may register the class under another tag),
// `define` registers <crypto-checkout>, and a second copy of `define` on the page does not throw.
import { expect } from '@open-wc/testing';

describe('npm entries', () => {
  it('index exports the class and the events without registering anything', async () => {
    const index = await import('../../src/index.ts');
    expect(index.CryptoCheckout).to.be.a('function');
    expect(customElements.get('crypto-checkout')).to.equal(undefined);
  });

  it('define registers the tag with the class index exports', async () => {
    const { CryptoCheckout } = await import('../../src/index.ts');
    await import('../../src/define.ts');
    expect(customElements.get('crypto-checkout')).to.equal(CryptoCheckout);
  });

  it('a second copy of define (another module instance) does not throw', async () => {
    const first = customElements.get('crypto-checkout');
    // A query string makes the browser load a new instance of the module, as a second bundle would.
    const url = new URL('../../src/define.ts?copy=2', import.meta.url).href;
    await import(url);
    expect(customElements.get('crypto-checkout')).to.equal(first);
  });
});
