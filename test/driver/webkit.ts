/**
 * WebKit (Debian's WebKitGTK: WebKitWebDriver and MiniBrowser) for the end-to-end tests, over WebDriver classic
 * with webdriverio: an Xvfb per test file, a WebDriver session (its own MiniBrowser and ephemeral profile, on a
 * driver of its own) per `newContext`, a window per page.
 *
 * A desktop page is the window's, sized to a 1280 × 900 viewport. A phone page (390 × 844) is framed: the
 * window is never narrower than 447 px, so the page runs in a same-origin iframe of that size on a page of the
 * proxy's (driver/proxy.ts), and `goto`, `url`, Back and Reload act on the frame. No touch emulation there.
 */

import type { Browser as WdioBrowser } from 'webdriverio';
import { startWebKit, webdriverKeyboard, webdriverMouse } from '../../scripts/browsers.mjs';
import type { Browser, ContextOptions, Page } from './api.ts';
import { pasteIntoScratch } from './firefox.ts';
import type { Step } from './in-page.ts';
import { EngineContext, type EnginePage, engineExpression, type Tab } from './page.ts';
import type { RecordingProxy } from './proxy.ts';

type Driver = WdioBrowser;

const elementKey = 'element-6066-11e4-a52e-4f735466cecf';
const viewportFrame: Step[] = [{ kind: 'css', selector: '#e2e-viewport' }];

/** The session's pages share one driver: the one acted on must be its current window. */
class Session {
  current = '';
  constructor(readonly driver: Driver) {}
  async use(handle: string) {
    if (this.current !== handle) {
      await this.driver.switchToWindow(handle);
      this.current = handle;
    }
  }
}

class WebKitTab implements Tab {
  private framedOrigin = '';

  constructor(
    private readonly session: Session,
    readonly handle: string,
    private readonly mobile: boolean,
  ) {}

  private get driver() {
    return this.session.driver;
  }

  private async focus() {
    await this.session.use(this.handle);
  }

  private async enter(frames: Step[][]) {
    await this.focus();
    await this.driver.switchFrame(null);
    for (const steps of this.mobile ? [viewportFrame, ...frames] : frames) {
      const outcome = (await this.driver.execute(`return ${engineExpression({ op: 'resolve', steps })}`)) as {
        ok: boolean;
        value?: Record<string, string>;
      };
      const id = outcome.ok ? outcome.value?.[elementKey] : undefined;
      if (!id) throw new Error('no such frame');
      await this.driver.switchFrame({ [elementKey]: id } as never);
    }
  }

  /** Evaluates in the top-level document (the phone frame's holder, when framed). */
  private async top<T>(script: string, ...args: unknown[]): Promise<T> {
    await this.focus();
    await this.driver.switchFrame(null);
    return this.driver.execute(script, ...args) as Promise<T>;
  }

  async goto(url: string) {
    if (!this.mobile) {
      await this.focus();
      await this.driver.navigateTo(url);
      return;
    }
    const origin = new URL(url).origin;
    if (this.framedOrigin !== origin) {
      await this.focus();
      await this.driver.navigateTo(`${origin}/__e2e__/viewport?width=390&height=844`);
      this.framedOrigin = origin;
    }
    await this.framed(
      `const frame = document.getElementById('e2e-viewport');
       frame.addEventListener('load', () => done(), { once: true });
       frame.src = arguments[0];`,
      url,
    );
  }

  /** Runs `body` (which calls `done()`) in the holder page and waits for it. */
  private async framed(body: string, ...args: unknown[]) {
    await this.focus();
    await this.driver.switchFrame(null);
    await this.driver.executeAsync(`const done = arguments[arguments.length - 1]; ${body}`, ...args);
  }

  async url() {
    if (!this.mobile) {
      await this.focus();
      return this.driver.getUrl();
    }
    return this.top<string>("return document.getElementById('e2e-viewport').contentWindow.location.href");
  }

  async back() {
    if (!this.mobile) {
      await this.focus();
      await this.driver.back();
      return;
    }
    await this.top("document.getElementById('e2e-viewport').contentWindow.history.back()");
  }

  async reload() {
    if (!this.mobile) {
      await this.focus();
      await this.driver.refresh();
      return;
    }
    await this.framed(
      `const frame = document.getElementById('e2e-viewport');
       frame.addEventListener('load', () => done(), { once: true });
       frame.contentWindow.location.reload();`,
    );
  }

  async evaluate(frames: Step[][], expression: string) {
    try {
      return await this.evaluateIn(frames, expression);
    } catch (error) {
      // webdriverio's errors carry the whole request (the engine's source): the driver's message is enough.
      throw new Error(
        String((error as Error).message ?? error)
          .split(' when running')[0]
          ?.slice(0, 500),
      );
    }
  }

  private async evaluateIn(frames: Step[][], expression: string) {
    await this.enter(frames);
    return this.driver.executeAsync(
      `const done = arguments[arguments.length - 1];
       Promise.resolve().then(() => ${expression}).then(done, (error) => done({ ok: false, retry: false, message: String(error && error.message || error) }));`,
    );
  }

  async click(x: number, y: number) {
    await this.focus();
    await this.driver.switchFrame(null);
    await webdriverMouse(this.driver).click(x, y);
  }

  async press(key: string) {
    await this.focus();
    await webdriverKeyboard(this.driver).press(key);
  }

  async screenshot(path: string) {
    await this.focus();
    await this.driver.switchFrame(null);
    if (this.mobile) {
      const frame = await this.driver.$('#e2e-viewport');
      await frame.saveScreenshot(path);
    } else {
      await this.driver.saveScreenshot(path);
    }
  }

  async bringToFront() {
    await this.focus();
  }

  async close() {
    await this.focus();
    const handles = await this.driver.getWindowHandles();
    if (handles.length > 1) {
      await this.driver.closeWindow();
      this.session.current = '';
    } else {
      await this.driver.navigateTo('about:blank');
    }
  }
}

/** Sizes the window so that its viewport is 1280 × 900 (the window adds its own frame and toolbar). */
async function sizeViewport(driver: Driver) {
  await driver.setWindowRect(0, 0, 1280, 900);
  const [innerWidth, innerHeight] = (await driver.execute('return [innerWidth, innerHeight]')) as number[];
  await driver.setWindowRect(0, 0, 1280 + (1280 - (innerWidth ?? 1280)), 900 + (900 - (innerHeight ?? 900)));
}

class WebKitContext extends EngineContext {
  private readonly session: Session;
  private first = true;

  constructor(
    private readonly opened: { browser: Driver; close(): Promise<void> },
    private readonly options: ContextOptions,
    proxy: () => RecordingProxy,
  ) {
    super('webkit', proxy);
    this.session = new Session(opened.browser);
  }

  protected async newTab() {
    const driver = this.session.driver;
    let handle: string;
    if (this.first) {
      this.first = false;
      handle = await driver.getWindowHandle();
    } else {
      handle = (await driver.createWindow('tab')).handle;
    }
    await this.session.use(handle);
    if (!this.options.mobile) await sizeViewport(driver);
    return new WebKitTab(this.session, handle, this.options.mobile ?? false);
  }

  protected async nextTab(known: Tab[], timeout: number) {
    const knownHandles = new Set(known.map((tab) => (tab as WebKitTab).handle));
    const deadline = Date.now() + timeout;
    while (Date.now() < deadline) {
      const fresh = (await this.session.driver.getWindowHandles()).find(
        (handle) => !knownHandles.has(handle),
      );
      if (fresh) return new WebKitTab(this.session, fresh, false);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('no new tab opened');
  }

  protected async closeContext() {
    await this.opened.close();
  }
}

export async function launchWebKitForTests(proxy: () => RecordingProxy): Promise<Browser> {
  const webkit = await startWebKit();
  return {
    engine: 'webkit',
    async newContext(options: ContextOptions = {}) {
      return new WebKitContext(await webkit.newSession(), options, proxy);
    },
    async grantClipboard() {},
    clipboardText: (page: Page) => pasteIntoScratch(page as EnginePage),
    close: () => webkit.stop(),
  };
}
