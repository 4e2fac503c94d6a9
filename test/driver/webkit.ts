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
import { callTimeout, EngineContext, type EnginePage, engineExpression, type Tab, within } from './page.ts';
import type { RecordingProxy } from './proxy.ts';

type Driver = WdioBrowser;

const elementKey = 'element-6066-11e4-a52e-4f735466cecf';
const viewportFrame: Step[] = [{ kind: 'css', selector: '#e2e-viewport' }];

/**
 * The session's pages share one driver, and WebDriver keeps one current window and frame per session: each tab's
 * call (switch to its window and frame, then act) runs alone, one after another (`run`), so that a page waited
 * on (`waitForURL`) while a test acts in a frame of it never switches that frame away under it. Each call is
 * bounded (`callTimeout`): WebKitWebDriver answers one command at a time, so a command that never returns makes
 * the session unusable, and every later call fails at once with the first one's error.
 */
class Session {
  private current = '';
  private queue: Promise<unknown> = Promise.resolve();
  broken: Error | undefined;

  constructor(readonly driver: Driver) {}

  run<T>(what: string, work: () => Promise<T>, ms = callTimeout.other): Promise<T> {
    const turn = this.queue.then(async () => {
      if (this.broken) throw new Error(`${what}: ${this.broken.message}`);
      try {
        return await within(ms, `webkit: ${what}`, work);
      } catch (error) {
        if (String((error as Error).message).includes('no answer from the browser')) {
          this.broken = error as Error;
        }
        throw error;
      }
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  async use(handle: string) {
    if (this.current !== handle) {
      await this.driver.switchToWindow(handle);
      this.current = handle;
    }
  }

  forget() {
    this.current = '';
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

  /** `work` alone on the session, in this tab's window, its top-level document current. */
  private inTab<T>(what: string, work: () => Promise<T>, ms?: number) {
    return this.session.run(
      what,
      async () => {
        await this.session.use(this.handle);
        await this.driver.switchFrame(null);
        return work();
      },
      ms,
    );
  }

  /** Switches to the frame reached through `frames` (the phone frame first, when framed). */
  private async enter(frames: Step[][]) {
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

  /** Runs `body` (which calls `done()`) in the holder page and waits for it. */
  private framed(body: string, ...args: unknown[]) {
    return this.driver.executeAsync(`const done = arguments[arguments.length - 1]; ${body}`, ...args);
  }

  goto(url: string) {
    return this.inTab(
      'goto',
      async () => {
        if (!this.mobile) {
          await this.driver.navigateTo(url);
          return;
        }
        const origin = new URL(url).origin;
        if (this.framedOrigin !== origin) {
          await this.driver.navigateTo(`${origin}/__e2e__/viewport?width=390&height=844`);
          this.framedOrigin = origin;
        }
        await this.framed(
          `const frame = document.getElementById('e2e-viewport');
           frame.addEventListener('load', () => done(), { once: true });
           frame.src = arguments[0];`,
          url,
        );
      },
      callTimeout.navigation,
    );
  }

  url() {
    return this.inTab('url', async () =>
      this.mobile
        ? ((await this.driver.execute(
            "return document.getElementById('e2e-viewport').contentWindow.location.href",
          )) as string)
        : this.driver.getUrl(),
    );
  }

  back() {
    return this.inTab(
      'back',
      async () => {
        if (!this.mobile) await this.driver.back();
        else
          await this.driver.execute("document.getElementById('e2e-viewport').contentWindow.history.back()");
      },
      callTimeout.navigation,
    );
  }

  reload() {
    return this.inTab(
      'reload',
      async () => {
        if (!this.mobile) {
          await this.driver.refresh();
          return;
        }
        await this.framed(
          `const frame = document.getElementById('e2e-viewport');
           frame.addEventListener('load', () => done(), { once: true });
           frame.contentWindow.location.reload();`,
        );
      },
      callTimeout.navigation,
    );
  }

  async evaluate(frames: Step[][], expression: string) {
    try {
      return await this.inTab('evaluate', async () => {
        await this.enter(frames);
        return this.driver.executeAsync(
          `const done = arguments[arguments.length - 1];
           Promise.resolve().then(() => ${expression}).then(done, (error) => done({ ok: false, retry: false, message: String(error && error.message || error) }));`,
        );
      });
    } catch (error) {
      // webdriverio's errors carry the whole request (the engine's source): the driver's message is enough.
      throw new Error(
        String((error as Error).message ?? error)
          .split(' when running')[0]
          ?.slice(0, 500),
      );
    }
  }

  click(x: number, y: number) {
    return this.inTab('click', () => webdriverMouse(this.driver).click(x, y));
  }

  press(key: string) {
    return this.inTab(`press ${key}`, () => webdriverKeyboard(this.driver).press(key));
  }

  screenshot(path: string) {
    return this.inTab('screenshot', async () => {
      if (this.mobile) {
        const frame = await this.driver.$('#e2e-viewport');
        await frame.saveScreenshot(path);
      } else {
        await this.driver.saveScreenshot(path);
      }
    });
  }

  bringToFront() {
    return this.inTab('bringToFront', async () => undefined);
  }

  close() {
    return this.inTab('close', async () => {
      const handles = await this.driver.getWindowHandles();
      if (handles.length > 1) {
        await this.driver.closeWindow();
        this.session.forget();
      } else {
        await this.driver.navigateTo('about:blank');
      }
    });
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
    private readonly opened: { browser: Driver; close(politely?: boolean): Promise<void> },
    private readonly options: ContextOptions,
    proxy: () => RecordingProxy,
  ) {
    super('webkit', proxy);
    this.session = new Session(opened.browser);
  }

  protected newTab() {
    return this.session.run('newPage', async () => {
      const driver = this.session.driver;
      let handle: string;
      if (this.first) {
        this.first = false;
        handle = await driver.getWindowHandle();
      } else {
        handle = (await driver.createWindow('window')).handle;
      }
      await this.session.use(handle);
      if (!this.options.mobile) await sizeViewport(driver);
      return new WebKitTab(this.session, handle, this.options.mobile ?? false);
    });
  }

  protected async nextTab(known: Tab[], timeout: number) {
    const knownHandles = new Set(known.map((tab) => (tab as WebKitTab).handle));
    const deadline = Date.now() + timeout;
    while (Date.now() < deadline) {
      const handles = await this.session.run('window handles', () => this.session.driver.getWindowHandles());
      const fresh = handles.find((handle) => !knownHandles.has(handle));
      if (fresh) return new WebKitTab(this.session, fresh, false);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('no new tab opened');
  }

  /** Ends the session (its MiniBrowser and driver), by killing them when the session stopped answering. */
  protected async closeContext() {
    await this.opened.close(this.session.broken === undefined);
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
