/**
 * `npm run screenshots`: the element in every mode at 390 px (a phone) and 1280 px wide, light and dark, on the
 * demo's pages as `npm start` serves them, into docs/screenshots/<mode>-<width>-<theme>.png (the README shows
 * them). Debian's Chromium through playwright-core, the flags of scripts/chromium-flags.json. Each shot is of the
 * element once it shows what a shopper came for: the quote (buy, sell), the product (pay), the address (deposit).
 * Then the pay flow with its payment page open, inline and in the modal, at both widths, into
 * docs/screenshots/pay-flow-<display>-<width>.png. `npm run screenshots -- flow` takes only those.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, root, startDemo } from '../test/harness.ts';
// @ts-expect-error: plain JavaScript shared with scripts/test.mjs (no types).
import * as ensure from './ensure.mjs';

ensure.ensureDeps();
process.env.CHROME_PATH ??= ensure.ensureChromium();
ensure.ensurePackagesBuilt();
ensure.ensureWidgetBuilt();
ensure.ensureDemoBuilt();

const out = join(root, 'docs', 'screenshots');
mkdirSync(out, { recursive: true });

const shown = (selector: string) => (page: Page) =>
  page.waitForFunction(
    (s) => !!document.querySelector('crypto-checkout')?.shadowRoot?.querySelector(s),
    selector,
  );

const modes: {
  mode: string;
  path: string;
  ready: (page: Page) => Promise<unknown>;
  attributes?: Record<string, string>;
}[] = [
  // Germany: more than four payment methods, collapsed into a picker so a phone sees the quote and Continue.
  { mode: 'buy', path: '/buy', ready: shown('[part~="quote"] dl div'), attributes: { country: 'DE' } },
  { mode: 'sell', path: '/sell', ready: shown('[part~="quote"] dl div') },
  { mode: 'pay', path: '/products/aurora-headphones', ready: shown('.product .name') },
  { mode: 'deposit', path: '/deposit', ready: shown('img.qr') },
];

const onlyFlow = process.argv.includes('flow');
const demo = await startDemo('screenshots');
const browser = await launchBrowser();
try {
  for (const { mode, path, ready, attributes = {} } of onlyFlow ? [] : modes) {
    for (const width of [390, 1280]) {
      for (const theme of ['light', 'dark'] as const) {
        const context = await browser.newContext({
          viewport: { width, height: width < 600 ? 844 : 800 },
          deviceScaleFactor: 1,
          colorScheme: theme,
          reducedMotion: 'reduce',
        });
        const page = await context.newPage();
        await page.goto(`${demo.url}${path}`);
        await page.evaluate(
          (set) => {
            const el = document.querySelector('crypto-checkout');
            for (const [name, value] of Object.entries(set)) el?.setAttribute(name, value);
          },
          { ...attributes, theme },
        );
        await ready(page);
        // Flags and logos are lazy images: wait until those in sight have loaded.
        await page.locator('crypto-checkout').scrollIntoViewIfNeeded();
        await page.waitForLoadState('networkidle');
        const file = join(out, `${mode}-${width}-${theme}.png`);
        await page.locator('crypto-checkout').screenshot({ path: file, animations: 'disabled' });
        console.log(`docs/screenshots/${mode}-${width}-${theme}.png`);
        await context.close();
      }
    }
  }
  // The pay flow: "Pay with crypto", then the payment page sized to its content, inline and in the modal.
  for (const display of ['inline', 'modal'] as const) {
    for (const width of [390, 1280]) {
      const context = await browser.newContext({
        viewport: { width, height: width < 600 ? 844 : 800 },
        deviceScaleFactor: 1,
        reducedMotion: 'reduce',
      });
      const page = await context.newPage();
      await page.goto(`${demo.url}/products/ember-mug?display=${display}`);
      const checkout = page.locator('crypto-checkout');
      await checkout.getByRole('button', { name: /pay with crypto/i }).click();
      const frame = page.frameLocator('crypto-checkout iframe');
      await frame.getByLabel('Full name').waitFor();
      // The frame has taken the height the page posted.
      await page.waitForFunction(
        () => !!document.querySelector('crypto-checkout')?.shadowRoot?.querySelector('iframe')?.style.height,
      );
      await page.waitForLoadState('networkidle');
      const file = join(out, `pay-flow-${display}-${width}.png`);
      if (display === 'modal') await page.screenshot({ path: file, animations: 'disabled' });
      else await checkout.screenshot({ path: file, animations: 'disabled' });
      console.log(`docs/screenshots/pay-flow-${display}-${width}.png`);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await demo.stop();
}
