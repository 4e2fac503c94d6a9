/**
 * Firefox ESR (Debian's) for the end-to-end tests, over WebDriver BiDi with puppeteer-core: a browser per test
 * file, a browser context (own cookies and storage) per `newContext`.
 */
import type {
  ElementHandle,
  Frame,
  Browser as PuppeteerBrowser,
  BrowserContext as PuppeteerContext,
  Page as PuppeteerPage,
  Target,
} from 'puppeteer-core';
import { launchFirefox } from '../../scripts/browsers.mjs';
import type { Browser, ContextOptions, Page } from './api.ts';
import type { Step } from './in-page.ts';
import {
  boundedTab,
  callTimeout,
  EngineContext,
  type EnginePage,
  engineExpression,
  type Tab,
  within,
} from './page.ts';
import type { RecordingProxy } from './proxy.ts';

/** Puppeteer's key names are Playwright's, but for the space bar. */
const keyName = (key: string) => (key === 'Space' ? ' ' : key);

class FirefoxTab implements Tab {
  constructor(
    readonly page: PuppeteerPage,
    private readonly options: ContextOptions,
  ) {}

  async frame(frames: Step[][]): Promise<Frame> {
    let frame = this.page.mainFrame();
    for (const steps of frames) {
      const outcome = await frame.evaluateHandle(engineExpression({ op: 'resolve', steps }));
      const element = (
        await outcome.getProperty('value')
      ).asElement() as ElementHandle<HTMLIFrameElement> | null;
      if (!element) throw new Error('no such frame');
      const inner = await element.contentFrame();
      if (!inner) throw new Error('no such frame (not loaded)');
      frame = inner;
    }
    return frame;
  }

  async goto(url: string) {
    await this.page.goto(url);
  }
  async url() {
    return this.page.url();
  }
  async back() {
    await this.page.goBack();
  }
  async reload() {
    await this.page.reload();
  }
  async evaluate(frames: Step[][], expression: string) {
    return (await this.frame(frames)).evaluate(expression);
  }
  async click(x: number, y: number) {
    await this.page.mouse.click(x, y);
  }
  async press(key: string) {
    const parts = key.split('+').map(keyName);
    const last = parts.pop() as string;
    for (const modifier of parts) await this.page.keyboard.down(modifier as never);
    await this.page.keyboard.press(last as never);
    for (const modifier of parts.reverse()) await this.page.keyboard.up(modifier as never);
  }
  async screenshot(path: string, fullPage: boolean) {
    await this.page.screenshot({ path: path as `${string}.png`, fullPage });
  }
  async bringToFront() {
    await this.page.bringToFront();
  }
  async close() {
    await this.page.close();
  }
  async setViewport() {
    await this.page.setViewport(
      this.options.mobile
        ? { width: 390, height: 844, deviceScaleFactor: 1, isMobile: true, hasTouch: true }
        : { width: 1280, height: 900 },
    );
  }
}

class FirefoxContext extends EngineContext {
  constructor(
    private readonly context: PuppeteerContext,
    private readonly options: ContextOptions,
    proxy: () => RecordingProxy,
  ) {
    super('firefox', proxy);
  }

  protected newTab() {
    return within(callTimeout.other, 'firefox: newPage', async () => {
      const tab = new FirefoxTab(await this.context.newPage(), this.options);
      await tab.setViewport();
      return boundedTab('firefox', tab);
    });
  }

  protected async nextTab(known: Tab[], timeout: number) {
    const knownPages = new Set(known.map((tab) => (tab as FirefoxTab).page));
    // Every target there now is not the next tab: ours, and others' (Firefox shows a frame it refuses to load as
    // an error page, a target of its own).
    const knownTargets = new Set([
      ...known.map((tab) => (tab as FirefoxTab).page.target()),
      ...this.context.targets(),
    ]);
    const target: Target = await this.context.waitForTarget(
      (candidate) => candidate.type() === 'page' && !knownTargets.has(candidate),
      { timeout },
    );
    const page = await within(callTimeout.other, 'firefox: the new tab', () => target.page());
    if (!page || knownPages.has(page)) throw new Error('the new tab has no page');
    return boundedTab('firefox', new FirefoxTab(page, this.options));
  }

  protected async closeContext() {
    await within(callTimeout.other, 'firefox: close the context', () => this.context.close());
  }
}

export async function launchFirefoxForTests(proxy: () => RecordingProxy): Promise<Browser> {
  const browser: PuppeteerBrowser = await launchFirefox();
  return {
    engine: 'firefox',
    async newContext(options: ContextOptions = {}) {
      return new FirefoxContext(await browser.createBrowserContext(), options, proxy);
    },
    async grantClipboard() {},
    clipboardText: (page: Page) => pasteIntoScratch(page as EnginePage),
    close: () =>
      within(callTimeout.other, 'firefox: close', () => browser.close()).catch((error) => {
        browser.process()?.kill('SIGKILL');
        throw error;
      }),
  };
}

/**
 * What a shopper pasting would get: Control+V into a scratch field of the page. (Reading the clipboard from a
 * script asks the shopper first in Firefox and WebKit.)
 */
export async function pasteIntoScratch(page: EnginePage): Promise<string> {
  await page.evaluate(() => {
    const scratch = document.createElement('textarea');
    scratch.id = 'e2e-paste';
    scratch.style.cssText = 'position:fixed;top:0;left:0;width:200px;height:40px;z-index:2147483647';
    document.body.append(scratch);
    scratch.focus();
  });
  await page.tab.press('Control+v');
  return page.evaluate(() => {
    const scratch = document.getElementById('e2e-paste') as HTMLTextAreaElement;
    scratch.remove();
    return scratch.value;
  });
}
