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
 * Then `phones`: each mode's page, and the pay modal, at 390 × 844 in Chromium, Firefox and WebKit (the engines of
 * scripts/browsers.mjs, WebKit's page in a frame of that size as its window is never narrower than 447 px): it fails
 * when a field's text is under 16 px (iOS Safari zooms into it on focus), a control is under 44 × 44 px (a finger's
 * target) or a field cuts its text; and keeps docs/screenshots/<mode>-390-light-<engine>.png only where that
 * engine lays the element out otherwise than Chromium (another size), deleting the others.
 *
 * Then `rtl`: each mode's page in Arabic (`locale="ar"`, no `dir`: the element reads right to left from its
 * language), the pay modal and the country picker open, at 390 × 844 in the three engines, into
 * docs/screenshots/rtl/<buy|sell|pay|deposit|pay-modal|picker>-<engine>.png (the modal: the whole screen).
 *
 * `npm run screenshots -- modes flow journeys phones rtl` takes only the groups named (`flow`: the pay flow); a
 * journey's name (`-- journeys dead-end-limit-usd`) takes only the journeys named. Every shot
 * waits for what it shows (a condition with Playwright's deadline), never for a fixed time, so a run after a
 * change of wording or numbers takes the same pictures.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { launchPlaywrightChromium, root, startDemo } from '../test/harness.ts';
import * as engines from './browsers.mjs';
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

const groups = ['modes', 'flow', 'journeys', 'phones', 'rtl'] as const;
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

// ---- Phones in three engines ----

/** What the phone check reads of the page's element (in the page: no closure). */
interface PhoneReport {
  /** The element's box, px. */
  width: number;
  height: number;
  /** Fields whose text is under 16 px. */
  small: string[];
  /** Controls under 44 × 44 px. */
  tiny: string[];
  /** Fields that cut their text (client height under scroll height). */
  cut: string[];
}

/** The phone check, run in the page's document (`doc`): see `PhoneReport`. */
function phoneReport(doc: Document): PhoneReport {
  const el = doc.querySelector('crypto-checkout');
  const root = el?.shadowRoot;
  if (!el || !root) throw new Error('no <crypto-checkout> on the page');
  const view = doc.defaultView ?? window;
  const shown = (e: Element) =>
    e.getClientRects().length > 0 && view.getComputedStyle(e).visibility !== 'hidden';
  const name = (e: Element) =>
    `${e.localName}${e.id ? `#${e.id}` : ''}${e.className && typeof e.className === 'string' ? `.${e.className.trim().split(/\s+/).join('.')}` : ''} "${(e.textContent ?? '').trim().slice(0, 24)}"`;
  const fields = [...root.querySelectorAll('input:not([type=radio]):not([type=checkbox]), textarea')].filter(
    shown,
  );
  // What a finger hits: buttons, fields, a list's options, a method's whole line (its radio's label), links.
  const targets = [
    ...root.querySelectorAll(
      'button, input:not([type=radio]), textarea, [role=option], label:has(> input[type=radio])',
    ),
  ].filter(shown);
  const box = el.getBoundingClientRect();
  return {
    width: Math.round(box.width),
    height: Math.round(box.height),
    small: fields
      .filter((f) => Number.parseFloat(view.getComputedStyle(f).fontSize) < 16)
      .map((f) => `${name(f)} at ${view.getComputedStyle(f).fontSize}`),
    tiny: targets
      .filter((t) => {
        const r = t.getBoundingClientRect();
        return r.width < 43.5 || r.height < 43.5;
      })
      .map((t) => {
        const r = t.getBoundingClientRect();
        return `${name(t)} ${Math.round(r.width)}×${Math.round(r.height)}`;
      }),
    cut: fields
      .filter((f) => f.localName === 'textarea' && f.clientHeight < f.scrollHeight)
      .map((f) => `${name(f)} shows ${f.clientHeight} of ${f.scrollHeight} px`),
  };
}

/** Whether the page's element shows `selector` (and its images have loaded), run in the page. */
function phoneReady(doc: Document, selector: string): boolean {
  const root = doc.querySelector('crypto-checkout')?.shadowRoot;
  return (
    !!root?.querySelector(selector) &&
    [...root.querySelectorAll('img')].every((img) => img.complete || !img.getClientRects().length)
  );
}

/** Presses the element's main button (the pay modal's page), run in the page. */
function pressMain(doc: Document): boolean {
  const button = doc
    .querySelector('crypto-checkout')
    ?.shadowRoot?.querySelector<HTMLButtonElement>('[part~="button"]');
  button?.click();
  return !!button;
}

interface PhonePage {
  name: string;
  path: string;
  ready: string;
  attributes?: Record<string, string>;
  /** After `ready`: press the main button and wait for this. */
  afterPress?: string;
  /** After `ready`: click this field (a picker) and wait for its list's options. */
  open?: string;
}

const phonePages: PhonePage[] = [
  { name: 'buy', path: '/buy', ready: '[part~="quote"] dl div', attributes: { country: 'DE' } },
  { name: 'sell', path: '/sell', ready: '[part~="quote"] dl div' },
  { name: 'pay', path: '/products/aurora-headphones', ready: '.product .name' },
  { name: 'deposit', path: '/deposit', ready: 'img.qr' },
  {
    name: 'pay-modal',
    path: '/products/ember-mug?display=modal',
    ready: '.product .name',
    afterPress: 'dialog[open] iframe',
  },
];

/** One engine's page at 390 × 844: goes to a path, runs a function of the document there, shoots the element. */
interface PhoneDriver {
  goto(path: string): Promise<void>;
  run<A, R>(fn: (doc: Document, arg: A) => R, arg: A): Promise<R>;
  shoot(file: string): Promise<void>;
  /** The whole screen (a modal covers it). */
  shootScreen(file: string): Promise<void>;
  close(): Promise<void>;
}

/** Runs `fn` in the page until it returns true (a condition with a deadline, never a fixed wait). */
async function until<A>(driver: PhoneDriver, fn: (doc: Document, arg: A) => boolean, arg: A, what: string) {
  const deadline = Date.now() + 30_000;
  while (!(await driver.run(fn, arg).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Source of a function of the document, called on `doc` (an expression) with `arg`. tsx keeps functions' names
 * with a `__name` helper the page does not have: it is given one.
 */
const callOn = (doc: string, fn: (...args: never[]) => unknown, arg: unknown) =>
  `((__name) => (${fn.toString()})(${doc}, ${JSON.stringify(arg)}))((f) => f)`;

async function chromiumPhone(browser: Browser): Promise<PhoneDriver> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  return {
    goto: async (path) => void (await page.goto(`${demo.url}${path}`)),
    run: (fn, arg) => page.evaluate(callOn('document', fn, arg)) as never,
    shoot: async (file) =>
      void (await page.locator('crypto-checkout').screenshot({ path: file, animations: 'disabled' })),
    shootScreen: async (file) => void (await page.screenshot({ path: file, animations: 'disabled' })),
    close: () => context.close(),
  };
}

async function firefoxPhone(): Promise<PhoneDriver> {
  const browser = await engines.launchFirefox();
  const page = await browser.newPage();
  await page.setViewport({ width: 390, height: 844 });
  return {
    goto: async (path) => void (await page.goto(`${demo.url}${path}`)),
    run: (fn, arg) => page.evaluate(callOn('document', fn, arg)) as never,
    shoot: async (file) => {
      const element = await page.$('crypto-checkout');
      if (!element) throw new Error('no <crypto-checkout> to shoot');
      await element.screenshot({ path: file as `${string}.png` });
    },
    shootScreen: async (file) => void (await page.screenshot({ path: file as `${string}.png` })),
    close: () => browser.close(),
  };
}

/** WebKit: the page in a 390 × 844 frame of a page of the demo's origin (its window is never narrower than 447 px). */
async function webkitPhone(): Promise<PhoneDriver> {
  const webkit = await engines.startWebKit();
  const { browser } = await webkit.newSession();
  const frameDoc = "document.getElementById('phone').contentDocument";
  const driver: PhoneDriver = {
    goto: async (path) => {
      // A page of the demo's origin with no script of its own (/embed) becomes the phone's frame: a same-origin
      // frame, whose document the check reads.
      await browser.url(`${demo.url}/embed`);
      await browser.execute((src: string) => {
        document.head.innerHTML =
          '<style>html,body{margin:0}iframe{border:0;width:390px;height:844px}</style>';
        document.body.innerHTML = '<iframe id="phone"></iframe>';
        (document.getElementById('phone') as HTMLIFrameElement).src = src;
      }, `${demo.url}${path}`);
      await until(
        driver,
        (doc) => doc.readyState === 'complete' && doc.location.href !== 'about:blank',
        null,
        'the page',
      );
    },
    run: (fn, arg) => browser.execute(`return ${callOn(frameDoc, fn, arg)}`) as never,
    shoot: async (file) => {
      // WebKitGTK's WebDriver shoots an element inside a frame at the wrong place; its shot of the window is right.
      // So the frame is made as tall as its page (nothing scrolls inside it) and moved up until the element is at
      // the window's top, and the window's shot is cut to the element.
      const box: { left: number; width: number; height: number } = await browser.execute(() => {
        const frame = document.getElementById('phone') as HTMLIFrameElement;
        const page = frame.contentDocument;
        const element = page?.querySelector<HTMLElement>('crypto-checkout');
        if (!page || !element) throw new Error('no <crypto-checkout> to shoot');
        frame.style.height = `${page.documentElement.scrollHeight}px`;
        page.documentElement.scrollTop = 0;
        const { left, top, width, height } = element.getBoundingClientRect();
        frame.style.cssText += `;position:absolute;left:0;top:${-top}px`;
        return { left: Math.round(left), width: Math.round(width), height: Math.round(height) };
      });
      // The window's shot is of what it last painted: two frames later, the frame's move is on screen.
      await browser.executeAsync((done: () => void) =>
        requestAnimationFrame(() => requestAnimationFrame(() => done())),
      );
      const window = PNG.sync.read(Buffer.from(await browser.takeScreenshot(), 'base64'));
      const shot = new PNG({ width: box.width, height: Math.min(box.height, window.height) });
      PNG.bitblt(window, shot, box.left, 0, shot.width, shot.height, 0, 0);
      writeFileSync(file, PNG.sync.write(shot));
    },
    shootScreen: async (file) => {
      // The frame (390 × 844) is at the window's top left: the window's shot cut to it.
      const window = PNG.sync.read(Buffer.from(await browser.takeScreenshot(), 'base64'));
      const shot = new PNG({ width: 390, height: Math.min(844, window.height) });
      PNG.bitblt(window, shot, 0, 0, shot.width, shot.height, 0, 0);
      writeFileSync(file, PNG.sync.write(shot));
    },
    close: () => webkit.stop(),
  };
  return driver;
}

/** A picture's width and height. */
const pngSize = (file: string) => PNG.sync.read(readFileSync(file));

/** The phone check and pictures in each engine: see the header. */
async function phones(chromiumBrowser: Browser): Promise<void> {
  const failures: string[] = [];
  const sizes: Record<string, Record<string, PhoneReport>> = {};
  for (const engine of ['chromium', 'firefox', 'webkit'] as const) {
    const driver =
      engine === 'chromium'
        ? await chromiumPhone(chromiumBrowser)
        : engine === 'firefox'
          ? await firefoxPhone()
          : await webkitPhone();
    try {
      for (const { name, path, ready, attributes = {}, afterPress } of phonePages) {
        await driver.goto(path);
        await until(
          driver,
          (doc) => !!doc.querySelector('crypto-checkout')?.shadowRoot,
          null,
          `${engine} ${name}: the element`,
        );
        await driver.run((doc, set: Record<string, string>) => {
          const el = doc.querySelector('crypto-checkout');
          for (const [key, value] of Object.entries(set)) el?.setAttribute(key, value);
        }, attributes);
        await until(driver, phoneReady, ready, `${engine} ${name}: ${ready}`);
        if (afterPress) {
          await driver.run(pressMain, null);
          await until(driver, phoneReady, afterPress, `${engine} ${name}: ${afterPress}`);
        }
        const report = await driver.run(phoneReport, null);
        sizes[name] = { ...sizes[name], [engine]: report };
        for (const problem of [...report.small, ...report.tiny, ...report.cut])
          failures.push(`${engine} ${name}: ${problem}`);
        console.log(
          `${engine} ${name}: ${report.width}×${report.height}, ${report.small.length + report.tiny.length + report.cut.length} problems`,
        );
        if (afterPress || engine === 'chromium') continue;
        // A picture where this engine lays the element out otherwise than Chromium (light, as the README's).
        const file = join(out, `${name}-390-light-${engine}.png`);
        const chromium = sizes[name]?.['chromium'];
        if (
          chromium &&
          (Math.abs(chromium.height - report.height) > 2 || Math.abs(chromium.width - report.width) > 2)
        ) {
          await driver.shoot(file);
          const shot = pngSize(file);
          console.log(
            `docs/screenshots/${name}-390-light-${engine}.png (${shot.width}×${shot.height}; Chromium ${chromium.width}×${chromium.height})`,
          );
        } else if (existsSync(file)) rmSync(file);
      }
    } finally {
      await driver.close();
    }
  }
  if (failures.length) throw new Error(`On a phone (390 px):\n${failures.join('\n')}`);
  console.log(
    'phones: every field at 16 px or more, every control 44 px or more, every field whole, in three engines',
  );
}

/** Whether the page's element shows the list of the picker `selector` with its options. */
function listOpen(doc: Document, selector: string): boolean {
  const root = doc.querySelector('crypto-checkout')?.shadowRoot;
  const input = root?.querySelector(selector);
  return !!root?.querySelector(`#${input?.id}-list:not([hidden]) [role=option]`);
}

/** Whether the page's element shows the list of the picker `selector` with its options (and their images). */
function listShown(doc: Document, selector: string): boolean {
  const root = doc.querySelector('crypto-checkout')?.shadowRoot;
  const input = root?.querySelector(selector);
  const list = root?.querySelector(`#${input?.id}-list:not([hidden])`);
  if (!list?.querySelector('[role=option]')) return false;
  // The list's images in its sight have loaded (those scrolled out of it are lazy and may never load).
  const sight = list.getBoundingClientRect();
  return [...root!.querySelectorAll('img')].every((img) => {
    const box = img.getBoundingClientRect();
    const hidden =
      !img.getClientRects().length ||
      (list.contains(img) && (box.bottom <= sight.top || box.top >= sight.bottom));
    return img.complete || hidden;
  });
}

/** Whether the page in the element's frame has drawn a control, run in the page. */
function pageInFrame(doc: Document): boolean {
  const frame = doc.querySelector('crypto-checkout')?.shadowRoot?.querySelector('iframe');
  return !!frame?.contentDocument?.querySelector('input, button');
}

/** Clicks the field `selector` of the page's element (opening its picker), run in the page. */
function clickField(doc: Document, selector: string): boolean {
  const input = doc.querySelector('crypto-checkout')?.shadowRoot?.querySelector<HTMLElement>(selector);
  input?.click();
  return !!input;
}

/** Right to left: each mode in Arabic, the modal and a picker open, at 390 × 844 in each engine (see the header). */
async function rightToLeft(chromiumBrowser: Browser): Promise<void> {
  const folder = join(out, 'rtl');
  mkdirSync(folder, { recursive: true });
  const pages: PhonePage[] = [
    ...phonePages,
    { name: 'picker', path: '/buy', ready: '[part~="quote"] dl div', open: '#country' },
  ];
  for (const engine of ['chromium', 'firefox', 'webkit'] as const) {
    const driver =
      engine === 'chromium'
        ? await chromiumPhone(chromiumBrowser)
        : engine === 'firefox'
          ? await firefoxPhone()
          : await webkitPhone();
    try {
      for (const { name, path, ready, attributes = {}, afterPress, open } of pages) {
        await driver.goto(path);
        await until(
          driver,
          (doc) => !!doc.querySelector('crypto-checkout')?.shadowRoot,
          null,
          `${engine} ${name}: the element`,
        );
        await driver.run(
          (doc, set: Record<string, string>) => {
            const el = doc.querySelector('crypto-checkout');
            for (const [key, value] of Object.entries(set)) el?.setAttribute(key, value);
          },
          { ...attributes, locale: 'ar' },
        );
        await until(driver, phoneReady, ready, `${engine} ${name}: ${ready}`);
        if (afterPress) {
          await driver.run(pressMain, null);
          await until(driver, phoneReady, afterPress, `${engine} ${name}: ${afterPress}`);
          // The payment page (the sandbox's, same origin here) has drawn its form.
          await until(driver, pageInFrame, null, `${engine} ${name}: the page in the modal`);
        }
        if (open) {
          await driver.run(clickField, open);
          await until(driver, listOpen, open, `${engine} ${name}: the list of ${open}`);
          // Its flags in sight: lazy images, which an engine may hold back at the list's edge; shot without them
          // rather than not at all (the line says so).
          await until(driver, listShown, open, `${engine} ${name}: the list's images`).catch((error) =>
            console.log(`${engine} ${name}: ${error.message}`),
          );
        }
        const file = join(folder, `${name}-${engine}.png`);
        await (afterPress ? driver.shootScreen(file) : driver.shoot(file));
        console.log(`docs/screenshots/rtl/${name}-${engine}.png`);
      }
    } finally {
      await driver.close();
    }
  }
}

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
  if (take('phones')) await phones(browser);
  if (take('rtl')) await rightToLeft(browser);
} finally {
  await browser.close();
  await demo.stop();
}
