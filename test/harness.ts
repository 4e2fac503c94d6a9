/**
 * What every end-to-end test file shares: the real `npm start` server (demo/server.ts) on a free port with a
 * throw-away DATA_DIR, a browser of the engine in E2E_BROWSER (chromium, firefox or webkit: scripts/test.mjs
 * runs each file once per engine), step screenshots, and a record of the element's events that survives page
 * navigations. A test file calls `demoSuite(suite)` once, and names its tests with this module's `test`, which
 * adds the engine to the name.
 *
 * Chromium is driven by playwright-core, as it always was; Firefox and WebKit by driver/ (puppeteer-core over
 * WebDriver BiDi, webdriverio over WebDriver classic) behind the same small part of Playwright's API
 * (driver/api.ts), with the demo behind a recording proxy (driver/proxy.ts) that stands in for Playwright's
 * init scripts and network events.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, test as nodeTest } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext as PlaywrightContext } from 'playwright-core';
import { checkoutEventNames } from '../demo/client/lib/event-log.ts';
import { freePort, portTaken, startOnFreePort } from '../packages/backend/test/servers.ts';
import chromiumFlags from '../scripts/chromium-flags.json' with { type: 'json' };
import type { Browser, BrowserContext, Engine, Page } from './driver/api.ts';
import { launchFirefoxForTests } from './driver/firefox.ts';
import { initScriptSource, recordEvents } from './driver/init-script.ts';
import { type RecordingProxy, startRecordingProxy } from './driver/proxy.ts';
import { launchWebKitForTests } from './driver/webkit.ts';

export type { Browser, BrowserContext, FrameLocator, Locator, Page } from './driver/api.ts';

/** The engine this run drives (scripts/test.mjs sets E2E_BROWSER; Chromium when unset). */
export const engine: Engine = (() => {
  const name = process.env.E2E_BROWSER ?? 'chromium';
  if (name !== 'chromium' && name !== 'firefox' && name !== 'webkit') {
    throw new Error(`E2E_BROWSER must be chromium, firefox or webkit, not "${name}"`);
  }
  return name;
})();

/**
 * The longest a test may run before it fails as hung (each browser call has its own, shorter bound: see
 * driver/page.ts's `callTimeout`); a test file's setup and teardown get `hookTimeout`.
 */
export const testTimeout = 300_000;
export const hookTimeout = 120_000;

/** node:test's `test`, with the engine in each test's name and `testTimeout` unless the test sets its own. */
export const test = ((name: string, ...rest: unknown[]) => {
  const [first, ...others] = rest;
  const args =
    typeof first === 'function'
      ? [{ timeout: testTimeout }, first, ...others]
      : [{ timeout: testTimeout, ...(first as object) }, ...others];
  return (nodeTest as unknown as (...args: unknown[]) => unknown)(`${name} (${engine})`, ...args);
}) as typeof nodeTest;

export const root = fileURLToPath(new URL('..', import.meta.url));

/** Chromium flags these machines need (root, no GPU, a closed network): see scripts/chromium-flags.json. */
export const chromeFlags: string[] = chromiumFlags;

/** A free port below the kernel's own picks (packages/backend/test/servers.ts says why). */
export { freePort };

export interface DemoServer {
  url: string;
  /** What the server printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
  /** `kill -9`: no shutdown code runs (its DATA_DIR is kept when the caller passed its own). */
  kill(): Promise<void>;
}

/**
 * Starts `node --import tsx demo/server.ts` (what `npm start` runs) and waits for `/healthz`. Its output goes
 * to test-results/logs/<engine>/<name>.log.
 */
/** The proxy in front of the newest demo server (Firefox and WebKit runs): the drivers read its records. */
let currentProxy: RecordingProxy | undefined;
const proxy = () => {
  if (!currentProxy) throw new Error('no demo server is running');
  return currentProxy;
};

/** The demo server's first line once it listens (demo/server.ts): the port it was given is its own. */
const listening = /crypto-checkout demo on /;

/**
 * Starts the demo server on a free port. A port found free can be taken by another process before the server
 * binds it (suites and other runs start servers side by side), and `/healthz` would then be answered by that
 * process: the server is ready only once its own output says it listens, and is started again on other ports
 * when its port (or its proxy's) was taken.
 */
export async function startDemo(name: string, env: Record<string, string> = {}): Promise<DemoServer> {
  return startOnFreePort(`${name}: the demo server`, () => startDemoOnce(name, env));
}

async function startDemoOnce(
  name: string,
  given: Record<string, string>,
): Promise<DemoServer | typeof portTaken> {
  let env = given;
  const port = await freePort();
  // Firefox and WebKit: the browser talks to the recording proxy, which the demo knows as its public address.
  let front: RecordingProxy | undefined;
  if (engine !== 'chromium') {
    const publicPort = await freePort();
    try {
      front = await startRecordingProxy(
        publicPort,
        () => new URL(`http://127.0.0.1:${port}`),
        initScriptSource(checkoutEventNames),
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') return portTaken;
      throw error;
    }
    currentProxy = front;
    env = {
      PUBLIC_URL: `http://localhost:${publicPort}`,
      ALLOWED_ORIGINS: ['localhost', '127.0.0.1', '[::1]']
        .map((host) => `http://${host}:${publicPort}`)
        .join(','),
      ...env,
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'crypto-checkout-e2e-'));
  const logDir = join(root, 'test-results', 'logs', engine);
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `${name}.log`);
  writeFileSync(logFile, '');
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(root, 'demo', 'server.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    appendFileSync(logFile, chunk);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://localhost:${front ? front.port : port}`;
  const health = `http://localhost:${port}/healthz`;

  const stop = async () => {
    await front?.close();
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const kill = async () => {
    child.kill('SIGKILL');
    await exited;
    await front?.close();
  };

  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (listening.test(output)) {
      try {
        const response = await fetch(health);
        if (response.ok) return { url, output: () => output, stop, kill };
      } catch {
        // not answering yet
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  if (/EADDRINUSE/.test(output)) return portTaken;
  throw new Error(`The demo server did not become healthy on ${url}.\n${output}`);
}

/** Debian's Chromium through playwright-core, as before; the event recorder as an init script of each context. */
async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    headless: true,
    // The Reporting API's reports (the demo's CSP `report-to`) sent within a second, not after a minute.
    args: [...chromeFlags, '--short-reporting-delay'],
  });
  return {
    engine: 'chromium',
    async newContext(options = {}) {
      const context = await browser.newContext(
        options.mobile
          ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true }
          : { viewport: { width: 1280, height: 900 } },
      );
      await context.addInitScript(recordEvents, checkoutEventNames);
      context.setDefaultTimeout(15_000);
      return context as unknown as BrowserContext;
    },
    async grantClipboard(context, origin) {
      await (context as unknown as PlaywrightContext).grantPermissions(
        ['clipboard-read', 'clipboard-write'],
        {
          origin,
        },
      );
    },
    clipboardText: (page) => page.evaluate(() => navigator.clipboard.readText()),
    close: () => browser.close(),
  };
}

/** Playwright's own Chromium, for scripts/screenshots.ts (which uses more of Playwright than the tests). */
export function launchPlaywrightChromium() {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: chromeFlags,
  });
}

/** A browser of this run's engine (see `engine`). */
export async function launchBrowser(): Promise<Browser> {
  if (engine === 'firefox') return launchFirefoxForTests(proxy);
  if (engine === 'webkit') return launchWebKitForTests(proxy);
  return launchChromium();
}

/** Contexts not closed yet: a test that closes its own context has passed its last step. */
const openContexts = new Set<BrowserContext>();

/**
 * For `afterEach`: a context still open means its test failed before the end, so screenshot its pages
 * (`FAILED-…` under the suite's screenshots) and close it.
 */
export async function closeLeftovers(suite: string): Promise<void> {
  const dir = join(root, 'test-results', 'screenshots', engine, suite);
  mkdirSync(dir, { recursive: true });
  let index = 0;
  for (const context of openContexts) {
    for (const page of context.pages()) {
      index += 1;
      await page
        .screenshot({ path: join(dir, `FAILED-${Date.now()}-${index}.png`), fullPage: true })
        .catch(() => undefined);
    }
    await context.close().catch(() => undefined);
  }
  openContexts.clear();
}

/**
 * CSP violations the pages of closed contexts saw (driver/init-script.ts records them in each tab): every demo page
 * is served under the storefront's policy, and `demoSuite` fails a file whose pages saw one.
 */
const cspViolationsSeen: string[] = [];

/** The CSP violations this tab's pages saw so far (`directive blocked (source:line) on path`). */
export const cspViolations = (page: Page): Promise<string[]> =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem('e2e-csp') ?? '[]') as string[]);

/**
 * A fresh context (own cookies and storage) whose pages record the element's events in sessionStorage. Closing it
 * first reads the CSP violations its pages saw (for `demoSuite`'s check).
 */
export async function newContext(
  browser: Browser,
  options: { mobile?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  const close = context.close.bind(context);
  context.close = async () => {
    for (const page of context.pages()) {
      cspViolationsSeen.push(...(await cspViolations(page).catch(() => [])));
    }
    await close();
  };
  openContexts.add(context);
  (context as unknown as { on(event: 'close', listener: () => void): void }).on('close', () =>
    openContexts.delete(context),
  );
  return context;
}

export interface RecordedEvent {
  name: string;
  detail: Record<string, unknown>;
  path: string;
}

/** The element events fired so far in this tab (across navigations). */
export async function recordedEvents(page: Page, name?: string): Promise<RecordedEvent[]> {
  const all = await page.evaluate(
    () => JSON.parse(sessionStorage.getItem('e2e-events') ?? '[]') as RecordedEvent[],
  );
  return name ? all.filter((event) => event.name === name) : all;
}

/** Saves numbered screenshots under test-results/screenshots/<engine>/<suite>/. */
export function screenshots(suite: string) {
  const dir = join(root, 'test-results', 'screenshots', engine, suite);
  mkdirSync(dir, { recursive: true });
  let step = 0;
  return async (page: Page, name: string, options: { fullPage?: boolean } = {}) => {
    step += 1;
    const file = join(dir, `${String(step).padStart(2, '0')}-${name}.png`);
    await page.screenshot({ path: file, fullPage: options.fullPage ?? false, animations: 'disabled' });
    return file;
  };
}

/** Waits until the element has fired `name` in this tab, and returns those events. */
export async function waitForEvent(page: Page, name: string): Promise<RecordedEvent[]> {
  await page.waitForFunction(
    (wanted) =>
      (JSON.parse(sessionStorage.getItem('e2e-events') ?? '[]') as Array<{ name: string }>).some(
        (e) => e.name === wanted,
      ),
    name,
  );
  return recordedEvents(page, name);
}

export interface ShownStatus {
  className: string;
  text: string;
  visible: boolean;
  /** Pixels of the element's card left empty under the element (its padding aside). */
  spaceBelow: number;
}

/**
 * Remembers, when the browser leaves the page, the status the element was showing (its `status` part), for
 * `statusShownOnLeave` to read on the next page of this tab: the element leaves for `return-url` soon after (1.5 s).
 */
export async function recordStatusOnLeave(page: Page): Promise<void> {
  await page.evaluate(() =>
    addEventListener('pagehide', () => {
      const element = document.querySelector('crypto-checkout');
      const part = element?.shadowRoot?.querySelector('[part~="status"]');
      const card = element?.closest('.card');
      const cardStyle = card && getComputedStyle(card);
      const shown = part && {
        className: part.className,
        text: (part.textContent ?? '').trim().replace(/\s+/g, ' '),
        visible: part.checkVisibility(),
        spaceBelow:
          element && card && cardStyle
            ? Math.round(
                card.getBoundingClientRect().bottom -
                  Number.parseFloat(cardStyle.paddingBottom) -
                  Number.parseFloat(cardStyle.borderBottomWidth) -
                  element.getBoundingClientRect().bottom,
              )
            : 0,
      };
      sessionStorage.setItem('e2e-status-on-leave', JSON.stringify(shown ?? null));
    }),
  );
}

export async function statusShownOnLeave(page: Page): Promise<ShownStatus | null> {
  return page.evaluate(
    () => JSON.parse(sessionStorage.getItem('e2e-status-on-leave') ?? 'null') as ShownStatus | null,
  );
}

/** Clicks the element's "Pay with crypto" button. */
export async function clickPay(page: Page): Promise<void> {
  await page
    .locator('crypto-checkout')
    .getByRole('button', { name: /pay with crypto/i })
    .click();
}

export interface Product {
  id: string;
  name: string;
}

export interface Demo {
  /** The running server (set once `before` has run). */
  readonly server: DemoServer;
  /** Its base URL, e.g. `http://localhost:41234`. */
  readonly url: string;
  readonly browser: Browser;
  /** Saves a numbered screenshot of a step under test-results/screenshots/<engine>/<suite>/. */
  shot: ReturnType<typeof screenshots>;
  /**
   * A fresh context (see `newContext`) with one page, at `path` when given; `host` opens the demo under another
   * local name (`127.0.0.1`, `[::1]`) than the server's own `localhost`.
   */
  open(
    path?: string,
    options?: { mobile?: boolean; host?: string },
  ): Promise<{ context: BrowserContext; page: Page }>;
  /** The catalog as the backend serves it (`GET /api/products`), at least one product. */
  products(): Promise<[Product, ...Product[]]>;
}

/**
 * Registers the suite's hooks: the demo server and the browser start before the first test and stop after the
 * last; after each test, what it left open is screenshotted as a failure and closed.
 */
/**
 * `env`: variables of the demo server's environment beside the harness's own (e.g. ADMIN_CREDENTIALS).
 * `cspReports: 'expected'`: the suite breaks the CSP on purpose (test/csp.test.ts) and checks the reports itself.
 */
export function demoSuite(
  suite: string,
  env: Record<string, string> = {},
  options: { cspReports?: 'expected' } = {},
): Demo {
  let server: DemoServer | undefined;
  let browser: Browser | undefined;
  before(
    async () => {
      [server, browser] = await Promise.all([startDemo(suite, env), launchBrowser()]);
    },
    { timeout: hookTimeout },
  );
  afterEach(() => closeLeftovers(suite), { timeout: hookTimeout });
  after(
    async () => {
      await browser?.close();
      await server?.stop();
      // The demo runs under the storefront's strict CSP: no page may have broken it, whether the page saw it
      // (securitypolicyviolation) or the browser reported it to the backend (its log line, csp-reports.ts).
      if (options.cspReports !== 'expected') {
        assert.deepEqual(cspViolationsSeen, [], `${suite}: CSP violations in the pages`);
        const reported = (server?.output() ?? '')
          .split('\n')
          .filter((line) => line.includes('CSP violation reported'));
        assert.deepEqual(reported, [], `${suite}: CSP violations reported to the backend`);
      }
    },
    { timeout: hookTimeout },
  );
  const started = () => {
    if (!server || !browser) throw new Error(`${suite}: the demo is not started yet (use it inside a test)`);
    return { server, browser };
  };
  return {
    get server() {
      return started().server;
    },
    get url() {
      return started().server.url;
    },
    get browser() {
      return started().browser;
    },
    shot: screenshots(suite),
    async open(path, options = {}) {
      const context = await newContext(started().browser, options);
      const page = await context.newPage();
      const base = new URL(started().server.url);
      if (options.host) base.hostname = options.host;
      if (path !== undefined) await page.goto(`${base.origin}${path}`);
      return { context, page };
    },
    async products() {
      const response = await fetch(`${started().server.url}/api/products`);
      const { products } = (await response.json()) as { products: Product[] };
      const [first, ...rest] = products;
      assert.ok(first, 'the catalog has a product');
      return [first, ...rest];
    },
  };
}
