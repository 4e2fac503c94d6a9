// A picker on a phone (390 × 844): opened near the bottom of the screen, its list shows in view with the current
// choice active and in sight, and a short list raises no on-screen keyboard. The phone is a same-origin frame of
// that size (WebKit's window is never narrower than 447 px), whose page loads the element as a storefront would.
import { expect } from '@open-wc/testing';
import type { CryptoCheckout } from '../../src/index.ts';
import { LANGUAGES } from '../../src/languages/languages.ts';
import { resetSandbox, waitUntil } from '../support.ts';

/** A 390 × 844 frame showing a shop's page: some content, then the element with `attributes`. */
async function phone(attributes: string): Promise<{ frame: HTMLIFrameElement; el: CryptoCheckout }> {
  const frame = document.createElement('iframe');
  frame.style.cssText = 'width:390px;height:844px;border:0;display:block';
  frame.srcdoc = `<!doctype html><meta name="viewport" content="width=device-width">
    <style>body{margin:0;font:16px sans-serif}#shop{height:400px}</style>
    <script type="module" src="/packages/widget/src/define.ts"></script>
    <div id="shop">A shop</div>
    <crypto-checkout api="/api" ${attributes}></crypto-checkout>
    <p>Footer</p>`;
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  await loaded;
  const doc = frame.contentDocument!;
  const el = doc.querySelector('crypto-checkout') as CryptoCheckout;
  await waitUntil(
    () => (el as Partial<CryptoCheckout>).readyState === 'ready',
    'the element never got ready',
  );
  await el.updateComplete;
  return { frame, el };
}

/** Moves the page's content so that `field`'s bottom is `gap` px above the bottom of the frame's screen. */
function putNearBottom(frame: HTMLIFrameElement, field: Element, gap: number): void {
  const win = frame.contentWindow!;
  const shop = frame.contentDocument!.getElementById('shop')!;
  win.scrollTo(0, 0);
  const bottom = field.getBoundingClientRect().bottom;
  shop.style.height = `${shop.offsetHeight + (win.innerHeight - gap - bottom)}px`;
  win.scrollTo(0, 0);
}

describe('a picker on a phone', () => {
  let frames: HTMLIFrameElement[] = [];
  beforeEach(resetSandbox);
  afterEach(() => {
    for (const frame of frames) frame.remove();
    frames = [];
  });

  // In every language the element speaks: the list's place, its current entry and the keyboard do not depend on the
  // words, but a longer label or a right-to-left layout must not move them.
  for (const locale of LANGUAGES) {
    it(`${locale}: the payment methods opened at the bottom of the screen show in view, the current one active and in sight, with no keyboard`, async () => {
      const { frame, el } = await phone(`mode="buy" country="DE" locale="${locale}" amount="100"`);
      frames.push(frame);
      const root = el.shadowRoot!;
      const method = root.querySelector<HTMLInputElement>('#method');
      expect(method, 'Germany’s methods are a picker').to.exist;
      putNearBottom(frame, method!, 8);
      const win = frame.contentWindow!;
      expect(method!.getBoundingClientRect().bottom).to.be.within(win.innerHeight - 10, win.innerHeight);
      method!.click();
      await waitUntil(() => root.querySelector('#method-list:not([hidden]) [role="option"]'), 'no list');
      const list = root.querySelector('#method-list')!;
      const options = [...list.querySelectorAll<HTMLElement>('[role="option"]')];
      expect(options.length).to.be.within(5, 8);
      // Eight methods or fewer: read, not typed; the country list (some 250) keeps its keyboard.
      expect(method!.getAttribute('inputmode')).to.equal('none');
      expect(root.querySelector('#country')!.hasAttribute('inputmode'), 'the country field').to.equal(false);
      // The list in view: the page has scrolled it onto the screen, under its field.
      await waitUntil(
        () => {
          const box = list.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= win.innerHeight;
        },
        `the list is not in view (${JSON.stringify(list.getBoundingClientRect())}, screen ${win.innerHeight})`,
      );
      const listBox = list.getBoundingClientRect();
      expect(listBox.top, 'under its field').to.be.at.least(method!.getBoundingClientRect().bottom - 1);
      const inView = options.filter((o) => {
        const box = o.getBoundingClientRect();
        return box.top >= listBox.top - 1 && box.bottom <= listBox.bottom + 1;
      });
      expect(inView.length, 'options in sight').to.be.at.least(Math.min(options.length, 4));
      // The current method: marked, active, and in the list's sight.
      const current = options.find((o) => o.classList.contains('cur'));
      expect(current, 'the current method is marked').to.exist;
      expect(current!.getAttribute('aria-selected')).to.equal('true');
      expect(inView).to.include(current);
      expect(current!.textContent).to.contain(method!.value);
    });
  }

  it('a long list (countries) keeps the current one in sight when it opens', async () => {
    const { frame, el } = await phone(`mode="buy" country="SE" locale="en" amount="100"`);
    frames.push(frame);
    const root = el.shadowRoot!;
    const country = root.querySelector<HTMLInputElement>('#country')!;
    country.click();
    await waitUntil(() => root.querySelector('#country-list:not([hidden]) .cur'), 'no list');
    const list = root.querySelector('#country-list')!;
    const current = list.querySelector<HTMLElement>('.cur')!;
    expect(current.textContent!.trim()).to.equal('Sweden');
    expect(country.getAttribute('aria-activedescendant')).to.equal(current.id);
    await waitUntil(() => {
      const box = current.getBoundingClientRect();
      const inList = list.getBoundingClientRect();
      return box.top >= inList.top - 1 && box.bottom <= inList.bottom + 1;
    }, 'Sweden is not in the list’s sight');
    expect(country.hasAttribute('inputmode'), 'a long list can be typed in').to.equal(false);
  });
});
