// The pinned tag as a merchant pastes it (`crypto-checkout-backend widget-tag`): the installed version's
// loader at /widget/v<version>/, with `integrity` and `crossorigin`, from a copy of the build served by the
// backend's widget routes (test/widget-copy.ts). Two of its chunks are changed on disk under the running server
// first: a view's, with code put before its own that would mark the page, and a language's, by one byte in a
// string. The element refuses each (its own `checkout-error` code, a console line naming the file), runs
// nothing of either, and tells the shopper a neutral message; the untouched chunks load and work.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { LitElement } from 'lit';
import { resetSandbox, waitForEvent, waitUntil } from '../support.ts';

interface Copy {
  origin: string;
  changed: string[];
}

const mark = 'ccTamperedChunkRan';
const page = globalThis as unknown as Record<string, unknown>;

function element(attributes: Record<string, string>): LitElement {
  const el = document.createElement('crypto-checkout') as LitElement;
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  document.body.append(el);
  return el;
}

describe('the pinned script tag', () => {
  before(resetSandbox);

  it('runs only the files its build pinned: a changed chunk is refused, said, and never runs', async () => {
    const copy = await executeServerCommand<Copy, object>('crypto-checkout:widget-copy', {
      changes: [
        { prefix: 'crypto-checkout-deposit-', prepend: `globalThis.${mark}=1;` },
        { prefix: 'crypto-checkout-de-', flip: true },
      ],
    });
    expect(copy.changed).to.have.length(2);
    const manifest = (await (await fetch(`${copy.origin}/widget/manifest.json`)).json()) as {
      version: string;
      loader: string;
      files: Record<string, string>;
    };
    const pinned = `${copy.origin}/widget/v${manifest.version}/`;
    // The manifest names the files as built, so the changed ones no longer match it.
    for (const name of copy.changed) expect(manifest.files[name]).to.match(/^sha384-/);

    const logged: string[] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => {
      logged.push(args.map(String).join(' '));
      consoleError.apply(console, args);
    };
    // A deposit page (its view's chunk changed), a German pay page (its language's chunk changed), an English one.
    const deposit = element({ mode: 'deposit', api: '/api', 'customer-token': 'unused' });
    const german = element({ mode: 'pay', api: '/api', product: 'ember-mug', locale: 'de' });
    const english = element({ mode: 'pay', api: '/api', product: 'ember-mug', locale: 'en' });
    try {
      const refusedView = waitForEvent(deposit, 'checkout-error');
      const refusedLanguage = waitForEvent(german, 'checkout-error');
      const germanReady = waitForEvent(german, 'checkout-ready');
      const englishReady = waitForEvent(english, 'checkout-ready');
      await new Promise<void>((resolve, reject) => {
        const script = document.createElement('script');
        script.type = 'module';
        script.src = `${pinned}${manifest.loader}`;
        script.integrity = manifest.files[manifest.loader]!;
        script.crossOrigin = 'anonymous';
        script.onload = () => resolve();
        script.onerror = () => reject(new Error('the pinned loader did not load'));
        document.head.append(script);
      });

      // The untouched files load from the pinned path and work: the English page shows its product.
      await englishReady;
      await english.updateComplete;
      expect(english.shadowRoot!.textContent).to.contain('Pay');

      // The view's chunk: refused, with a code of its own; the shopper reads a neutral message, no retry.
      const view = await refusedView;
      expect(view.detail.code).to.equal('INTEGRITY');
      expect(view.detail.retryable).to.equal(false);
      await deposit.updateComplete;
      await waitUntil(() => deposit.shadowRoot!.querySelector('.error'), 'no message on the deposit page');
      expect(deposit.shadowRoot!.querySelector('.error')!.textContent!.trim()).to.equal(
        'This checkout is not available.',
      );
      expect(deposit.shadowRoot!.querySelector('.error button')).to.equal(null);

      // The language's chunk: refused too; the page shows the English it has, whole.
      expect((await refusedLanguage).detail.code).to.equal('INTEGRITY');
      await germanReady;
      await german.updateComplete;
      expect(german.shadowRoot!.textContent).to.contain('Pay');

      // Each refusal named its file for the developer; nothing of either changed file ran.
      for (const name of copy.changed)
        expect(logged.some((line) => line.includes(`${pinned}${name}`) && /integrity/.test(line))).to.equal(
          true,
          `no console line names ${name}: ${logged.join(' | ')}`,
        );
      expect(page[mark]).to.equal(undefined);
      expect(german.shadowRoot!.textContent).to.not.contain('Zahlung');
    } finally {
      console.error = consoleError;
      for (const el of [deposit, german, english]) el.remove();
    }
  });
});
