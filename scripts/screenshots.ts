/**
 * `npm run screenshots`: the element in every mode at 390 px (a phone) and 1280 px wide, light and dark, on the
 * demo's pages as `npm start` serves them, into docs/screenshots/<mode>-<width>-<theme>.png (the README shows
 * them). Debian's Chromium through playwright-core, the flags of scripts/chromium-flags.json. Each shot is of the
 * element once it shows what a shopper came for: the quote (buy, sell), the product (pay), the address (deposit).
 * Then the pay flow with its payment page open, inline and in the modal, at both widths, into
 * docs/screenshots/pay-flow-<display>-<width>.png; then the ramp journeys at both widths (light): buy and sell
 * through Continue to the ramp page open inline under the form's one-line summary
 * (docs/screenshots/<buy|sell>-flow-inline-<width>.png), and the dead ends with their way out
 * (docs/screenshots/dead-end-<sell-br-usd|country-kp|country-unknown|offline|limit-usd>-<width>.png).
 *
 * `npm run screenshots -- modes flow journeys` takes only the groups named (`flow`: the pay flow); a journey's
 * name (`-- journeys dead-end-limit-usd`) takes only the journeys named. Every shot
 * waits for what it shows (a condition with Playwright's deadline), never for a fixed time, so a run after a
 * change of wording or numbers takes the same pictures.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchPlaywrightChromium, root, startDemo } from '../test/harness.ts';
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

const groups = ['modes', 'flow', 'journeys'] as const;
const asked = groups.filter((g) => process.argv.slice(2).includes(g));
const take = (group: (typeof groups)[number]) => !asked.length || asked.includes(group);
const named = process.argv.slice(2).filter((arg) => !(groups as readonly string[]).includes(arg));

/** A light page of the demo at a width, motion reduced. */
async function open(browser: Browser, width: number, path: string) {
  const context = await browser.newContext({
    viewport: { width, height: width < 600 ? 844 : 800 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  await page.goto(`${demo.url}${path}`);
  return { context, page, checkout: page.locator('crypto-checkout') };
}

/** Sets attributes of the page's element (as a merchant's markup would), after its first catalog. */
const setAttributes = (page: Page, set: Record<string, string>) =>
  page.evaluate((attrs) => {
    const el = document.querySelector('crypto-checkout');
    for (const [name, value] of Object.entries(attrs)) el?.setAttribute(name, value);
  }, set);

/** Waits until the element's images shown (flags, logos: lazy; the other theme's logo never loads) have loaded. */
/**
 * Every image in sight has loaded: the element's (its shadow root) and those of the pages framed in it. A condition,
 * not `networkidle`, which a page that keeps a connection open (the order status stream) may never reach.
 */
const imagesLoaded = async (page: Page) => {
  await page.waitForFunction(() =>
    [...(document.querySelector('crypto-checkout')?.shadowRoot?.querySelectorAll('img') ?? [])].every(
      (img) => img.complete || !img.getClientRects().length,
    ),
  );
  for (const frame of page.frames().slice(1)) {
    await frame.waitForFunction(() =>
      [...document.images].every((img) => img.complete || !img.getClientRects().length),
    );
  }
};

/** The element's shot, scrolled into sight. */
async function shoot(page: Page, name: string): Promise<void> {
  const checkout = page.locator('crypto-checkout');
  await checkout.scrollIntoViewIfNeeded();
  await checkout.screenshot({ path: join(out, `${name}.png`), animations: 'disabled' });
  console.log(`docs/screenshots/${name}.png`);
}

/**
 * The ramp journeys: Continue opens the ramp page inline and the form collapses into its summary line; and each
 * dead end with the way out it offers.
 */
const journeys: { name: string; path: string; steps: (page: Page, checkout: Locator) => Promise<unknown> }[] =
  [
    ...(['buy', 'sell'] as const).map((side) => ({
      name: `${side}-flow-inline`,
      path: `/${side}`,
      steps: async (page: Page, checkout: Locator) => {
        // Continue is on once its quote is in.
        await checkout.locator('[part~="button"]:not([disabled])').click();
        await checkout.locator('[part~="summary"]').waitFor();
        const frame = page.frameLocator('crypto-checkout iframe');
        await frame.getByRole('heading', { level: 1, name: side === 'buy' ? /^Buy / : /^Sell / }).waitFor();
        // The ramp page has priced the amount it was opened with.
        await frame
          .getByText(/You (receive|get)/)
          .first()
          .waitFor();
        await imagesLoaded(page);
      },
    })),
    {
      name: 'dead-end-sell-br-usd',
      path: '/sell',
      steps: async (page: Page, checkout: Locator) => {
        await checkout.locator('[part~="quote"] dl div').first().waitFor();
        await setAttributes(page, { country: 'BR', fiat: 'USD' });
        await checkout.locator('[part~="switch"]').waitFor();
        await imagesLoaded(page);
      },
    },
    {
      name: 'dead-end-country-kp',
      path: '/buy',
      steps: async (page: Page, checkout: Locator) => {
        await checkout.locator('[part~="quote"] dl div').first().waitFor();
        await setAttributes(page, { country: 'KP' });
        await checkout.locator('[part~="switch"]').waitFor();
        await imagesLoaded(page);
      },
    },
    {
      name: 'dead-end-country-unknown',
      path: '/buy',
      steps: async (page: Page, checkout: Locator) => {
        await checkout.locator('[part~="quote"] dl div').first().waitFor();
        await setAttributes(page, { country: 'zzz' });
        await checkout.locator('[part~="switch"]').waitFor();
        await imagesLoaded(page);
      },
    },
    {
      name: 'dead-end-limit-usd',
      path: '/buy',
      steps: async (page: Page, checkout: Locator) => {
        await checkout.locator('[part~="quote"] dl div').first().waitFor();
        await setAttributes(page, { country: 'US', fiat: 'USD' });
        await checkout.locator('input#fiat').fill('1');
        await checkout.getByText(/^Minimum: ≈ /).waitFor();
        await imagesLoaded(page);
      },
    },
    {
      name: 'dead-end-offline',
      path: '/buy',
      steps: async (page: Page, checkout: Locator) => {
        await checkout.locator('[part~="quote"] dl div').first().waitFor();
        await checkout.scrollIntoViewIfNeeded();
        await imagesLoaded(page);
        await page.context().setOffline(true);
        await checkout.locator('input#fiat').fill('120');
        await checkout.locator('[part~="quote"] [role="alert"]').waitFor();
      },
    },
  ];

const demo = await startDemo('screenshots');
const browser = await launchPlaywrightChromium();
try {
  for (const { mode, path, ready, attributes = {} } of take('modes') ? modes : []) {
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
        await imagesLoaded(page);
        const file = join(out, `${mode}-${width}-${theme}.png`);
        await page.locator('crypto-checkout').screenshot({ path: file, animations: 'disabled' });
        console.log(`docs/screenshots/${mode}-${width}-${theme}.png`);
        await context.close();
      }
    }
  }
  // The pay flow: "Pay with crypto", then the payment page sized to its content, inline and in the modal.
  for (const display of take('flow') ? (['inline', 'modal'] as const) : []) {
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
      await imagesLoaded(page);
      const file = join(out, `pay-flow-${display}-${width}.png`);
      if (display === 'modal') await page.screenshot({ path: file, animations: 'disabled' });
      else await checkout.screenshot({ path: file, animations: 'disabled' });
      console.log(`docs/screenshots/pay-flow-${display}-${width}.png`);
      await context.close();
    }
  }
  for (const { name, path, steps } of take('journeys') ? journeys : []) {
    if (named.length && !named.includes(name)) continue;
    for (const width of [390, 1280]) {
      const { context, page, checkout } = await open(browser, width, path);
      await steps(page, checkout);
      await shoot(page, `${name}-${width}`);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await demo.stop();
}
