// The three browser engines the tests run in, from Debian's packages (scripts/ensure.mjs installs them):
// Chromium (`chromium`, over CDP), Firefox (`firefox-esr`, over WebDriver BiDi through puppeteer-core, no
// driver binary) and WebKit (`webkit2gtk-driver`: WebKitWebDriver and its MiniBrowser, WebDriver classic,
// under an Xvfb of our own since MiniBrowser has no headless mode).
//
// - `browsers`: web-test-runner launchers, one per engine named in WTR_BROWSERS (comma-separated; all three
//   when unset). scripts/test.mjs runs the browser suite once per engine.
// - `launchFirefox`, `startWebKit`: the same engines for the end-to-end tests (test/driver/).
// - `startXvfb`: a display of our own (Xvfb picks a free number), in its own process group, stopped by id;
//   `startXSettings`: an XSETTINGS daemon on it (Debian's `xsettingsd`), through which WebKitGTK is told the
//   shopper's colour scheme and wish for reduced motion (GTK's theme and animations): WebDriver classic cannot
//   emulate media features.
//
// Every process started here gets its own process group and is stopped by that group's id, at `stop()` or
// when this process exits. A launcher that cannot start its engine throws: a suite never skips an engine.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChromeLauncher, chromeLauncher } from '@web/test-runner-chrome';
import { WebdriverLauncher } from '@web/test-runner-webdriver';
import * as puppeteer from 'puppeteer-core';
import { remote } from 'webdriverio';

export const engines = ['chromium', 'firefox', 'webkit'];

export const chromiumPath = () => process.env.CHROME_PATH ?? '/usr/bin/chromium';
export const firefoxPath = () => process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
export const webkitDriverPath = () => process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
export const xsettingsdPath = () => process.env.XSETTINGSD_PATH ?? '/usr/bin/xsettingsd';
export const miniBrowserPath = () =>
  process.env.MINIBROWSER_PATH ??
  ['x86_64-linux-gnu', 'aarch64-linux-gnu']
    .map((triplet) => `/usr/lib/${triplet}/webkit2gtk-4.1/MiniBrowser`)
    .find((path) => existsSync(path)) ??
  '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** The flags these machines need for Chromium (root, no GPU, a closed network). */
export const chromiumFlags = JSON.parse(
  readFileSync(new URL('./chromium-flags.json', import.meta.url), 'utf8'),
);

/** The engines picked by WTR_BROWSERS / E2E_BROWSERS style lists ("chromium,webkit"); all when empty. */
export function pickEngines(list) {
  const names = (list ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!engines.includes(name))
      throw new Error(`Unknown browser engine "${name}": use ${engines.join(', ')}`);
  }
  return names.length ? names : engines;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Processes started here and not stopped yet, by process-group id: stopped when this process exits. */
const groups = new Set();
const stopAll = () => {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  groups.clear();
};
process.once('exit', stopAll);
// A test runner ending this process with a signal (a timeout, Ctrl+C): no 'exit' event, so stop them here, and
// exit as the signal would have unless someone else (web-test-runner) handles it.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    stopAll();
    if (process.listenerCount(signal) === 0) process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  });
}

/**
 * Starts `command` in a process group of its own; `stop()` sends SIGTERM to that group (SIGKILL after 3 s)
 * and waits for the process to exit. Its output is kept for error messages.
 */
function startGroup(command, args, options = {}) {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => {
    child.once('exit', resolve);
    child.once('error', (error) => {
      output += `\n${error.message}`;
      resolve();
    });
  });
  if (child.pid) groups.add(child.pid);
  const signal = (name) => {
    try {
      process.kill(-child.pid, name);
    } catch {
      // the group is gone
    }
  };
  return {
    child,
    exited,
    output: () => output,
    running: () => child.exitCode === null && child.signalCode === null && child.pid !== undefined,
    async stop() {
      if (!child.pid) return;
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
      // What the process started in its group (MiniBrowser, WebKit's helpers) goes too.
      signal('SIGKILL');
      groups.delete(child.pid);
    },
  };
}

/**
 * An X display of our own for WebKit: Xvfb chooses a free display number itself (`-displayfd`), so parallel
 * suites and other people's servers on this machine never collide. Resolves once the server accepts clients.
 */
export async function startXvfb() {
  const xvfb = startGroup('Xvfb', ['-displayfd', '1', '-screen', '0', '1920x1080x24', '-nolisten', 'tcp']);
  let number = '';
  const deadline = Date.now() + 20_000;
  await new Promise((resolve, reject) => {
    const check = () => {
      const match = xvfb.output().match(/^(\d+)\s*$/m);
      if (match) {
        number = match[1];
        resolve();
      } else if (!xvfb.running()) reject(new Error(`Xvfb did not start:\n${xvfb.output()}`));
      else if (Date.now() > deadline) reject(new Error(`Xvfb did not report its display:\n${xvfb.output()}`));
      else setTimeout(check, 50);
    };
    check();
  }).catch(async (error) => {
    await xvfb.stop();
    throw error;
  });
  return { display: `:${number}`, stop: () => xvfb.stop() };
}

/**
 * An XSETTINGS daemon (Debian's `xsettingsd`) on `display`, so that GTK programs there (MiniBrowser) take their
 * settings from us: `set({ 'Gtk/EnableAnimations': 0 })` rewrites its file and makes it reload (SIGHUP); GTK
 * applies a change while running. WebKitGTK answers `prefers-reduced-motion: reduce` while GTK's animations are
 * off, and `prefers-color-scheme: dark` under a dark theme (`Net/ThemeName "Adwaita-dark"`). Resolves once the
 * daemon owns the display's settings.
 */
export async function startXSettings(display) {
  const dir = mkdtempSync(join(tmpdir(), 'crypto-checkout-xsettings-'));
  const file = join(dir, 'xsettingsd.conf');
  const settings = { 'Net/ThemeName': '"Adwaita"', 'Gtk/EnableAnimations': 1 };
  const write = () =>
    writeFileSync(
      file,
      Object.entries(settings)
        .map(([name, value]) => `${name} ${value}\n`)
        .join(''),
    );
  write();
  const daemon = startGroup(xsettingsdPath(), ['-c', file], { env: { ...process.env, DISPLAY: display } });
  const stop = async () => {
    await daemon.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  while (!/Took ownership of selection/.test(daemon.output())) {
    if (!daemon.running() || Date.now() > deadline) {
      await stop();
      throw new Error(`xsettingsd did not start on ${display}:\n${daemon.output()}`);
    }
    await delay(50);
  }
  return {
    set(values) {
      Object.assign(settings, values);
      write();
      daemon.child.kill('SIGHUP');
    },
    stop,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Firefox
// ---------------------------------------------------------------------------------------------------------

/** Firefox ESR over WebDriver BiDi (puppeteer-core talks to Firefox's own remote agent: no geckodriver). */
export const firefoxLaunchOptions = () => ({
  browser: 'firefox',
  executablePath: firefoxPath(),
  headless: true,
  protocol: 'webDriverBiDi',
  // Lets BiDi reach Firefox's own (chrome) scope, where `setFirefoxMedia` sets the media preferences: BiDi has
  // no command for prefers-color-scheme or prefers-reduced-motion.
  args: ['--remote-allow-system-access'],
  extraPrefsFirefox: {
    // Overlay scrollbars, as Chromium's headless mode and phones have: a 12 px classic scrollbar would take
    // its width from every layout the tests measure.
    'widget.gtk.overlay-scrollbars.enabled': true,
    'ui.useOverlayScrollbars': 1,
  },
});

export async function launchFirefox() {
  return puppeteer.launch(firefoxLaunchOptions());
}

/**
 * Emulates `prefers-color-scheme` and `prefers-reduced-motion` in a Firefox started by `firefoxLaunchOptions`,
 * through the preferences behind them (for the whole browser; `undefined` or null returns to the default).
 */
export async function setFirefoxMedia(browser, { colorScheme, reducedMotion }) {
  const prefs = [];
  if (colorScheme !== undefined) {
    const value = { dark: 0, light: 1 }[colorScheme ?? ''];
    if (colorScheme && value === undefined)
      throw new Error(`Firefox cannot emulate colorScheme "${colorScheme}"`);
    prefs.push(['layout.css.prefers-color-scheme.content-override', value]);
  }
  if (reducedMotion !== undefined) {
    const value = { reduce: 1, 'no-preference': 0 }[reducedMotion ?? ''];
    prefs.push(['ui.prefersReducedMotion', value]);
  }
  const tree = await browser.connection.send('browsingContext.getTree', {
    'moz:scope': 'chrome',
    maxDepth: 0,
  });
  const context = tree.result.contexts[0]?.context;
  if (!context) throw new Error("Firefox's chrome scope is not reachable over BiDi");
  const expression = prefs
    .map(([name, value]) =>
      value === undefined
        ? `Services.prefs.clearUserPref(${JSON.stringify(name)});`
        : `Services.prefs.setIntPref(${JSON.stringify(name)}, ${value});`,
    )
    .join('\n');
  const answer = await browser.connection.send('script.evaluate', {
    expression: `${expression}\ntrue`,
    target: { context },
    awaitPromise: false,
  });
  if (answer.result.type !== 'success')
    throw new Error(`Firefox refused the media preferences: ${JSON.stringify(answer.result)}`);
}

/** Media features by the names @web/test-runner-commands and Puppeteer use. */
const mediaFromFeatures = (features = []) => {
  const media = {};
  for (const { name, value } of features) {
    if (name === 'prefers-color-scheme') media.colorScheme = value || null;
    else if (name === 'prefers-reduced-motion') media.reducedMotion = value || null;
    else throw new Error(`Firefox over BiDi cannot emulate ${name}`);
  }
  return media;
};

/**
 * Resolves once `page`'s media queries say what `setFirefoxMedia` set: a preference reaches the page's content
 * process a moment after it is set.
 */
async function waitForMedia(page, { colorScheme, reducedMotion }) {
  const wanted = {};
  if (colorScheme) wanted['(prefers-color-scheme: dark)'] = colorScheme === 'dark';
  if (reducedMotion) wanted['(prefers-reduced-motion: reduce)'] = reducedMotion === 'reduce';
  if (Object.keys(wanted).length === 0) return;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const applied = await page.evaluate(
      (queries) => Object.entries(queries).every(([query, matches]) => matchMedia(query).matches === matches),
      wanted,
    );
    if (applied) return;
    if (Date.now() > deadline) {
      throw new Error(`Firefox did not apply ${JSON.stringify({ colorScheme, reducedMotion })} within 10 s`);
    }
    await delay(50);
  }
}

/**
 * Firefox for web-test-runner: its Puppeteer launcher (ChromeLauncher with puppeteer-core, over BiDi), with
 * `emulateMedia` served through Firefox's preferences instead of CDP, which Firefox does not have.
 */
class FirefoxLauncher extends ChromeLauncher {
  constructor() {
    super(
      firefoxLaunchOptions(),
      ({ browser }) => browser.defaultBrowserContext(),
      ({ context }) => context.newPage(),
      puppeteer,
    );
  }

  getPage(sessionId) {
    const page = super.getPage(sessionId);
    return new Proxy(page, {
      get(target, property) {
        if (property === 'emulateMediaFeatures') {
          return async (features) => {
            const media = mediaFromFeatures(features);
            await setFirefoxMedia(target.browser(), media);
            await waitForMedia(target, media);
          };
        }
        if (property === 'emulateMediaType') {
          return async (type) => {
            if (type) throw new Error(`Firefox over BiDi cannot emulate the media type "${type}"`);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }
}

// ---------------------------------------------------------------------------------------------------------
// WebKit
// ---------------------------------------------------------------------------------------------------------

export const webkitCapabilities = () => ({
  // WebKitWebDriver speaks WebDriver classic only: without this, webdriverio asks for BiDi and is refused.
  'wdio:enforceWebDriverClassic': true,
  browserName: 'MiniBrowser',
  // No page cache (back/forward cache), as in the Chromium Playwright drives (`--disable-back-forward-cache`):
  // Back reloads the page, in every engine alike.
  'webkitgtk:browserOptions': {
    binary: miniBrowserPath(),
    args: ['--automation', '--enable-page-cache=false'],
  },
});

/**
 * WebKitWebDriver on a free port on `display`; resolves once it answers /status. `LANG` is set to a real tag:
 * under `C.UTF-8` WebKitGTK reports `navigator.language` as "C".
 */
export async function startWebKitDriver(display) {
  const port = await freePort();
  const driver = startGroup(webkitDriverPath(), [`--port=${port}`], {
    env: { ...process.env, DISPLAY: display, LANG: 'en_US.UTF-8' },
  });
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (!driver.running()) break;
    const ready = await fetch(`http://127.0.0.1:${port}/status`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { port, stop: () => driver.stop() };
    await delay(50);
  }
  await driver.stop();
  throw new Error(`WebKitWebDriver did not start on port ${port}:\n${driver.output()}`);
}

/** A WebDriver session (one MiniBrowser, its own ephemeral profile) on a driver of its own. */
export async function startWebKitSession(display) {
  const driver = await startWebKitDriver(display);
  try {
    const browser = await remote({
      hostname: '127.0.0.1',
      port: driver.port,
      // Failures reach the caller as errors; the log would repeat every one a test retries.
      logLevel: 'silent',
      connectionRetryCount: 1,
      connectionRetryTimeout: 60_000,
      capabilities: webkitCapabilities(),
    });
    // A script that never answers (a page stuck in a dialog of the browser's) fails instead of hanging.
    await browser.setTimeout({ script: 30_000, pageLoad: 60_000 });
    // Room for the largest viewport the tests use (pages are framed at their size: see `FramedSessionManager`).
    await browser.setWindowRect(0, 0, 1500, 1000);
    return {
      browser,
      /**
       * Ends the session, then stops its driver (and MiniBrowser with it). `politely: false` (a session that
       * stopped answering) skips the DELETE, which would wait behind the stuck command; so does a DELETE that
       * takes over 10 s.
       */
      async close(politely = true) {
        if (politely) {
          let timer;
          await Promise.race([
            browser.deleteSession().catch(() => undefined),
            new Promise((resolve) => {
              timer = setTimeout(resolve, 10_000);
            }),
          ]);
          clearTimeout(timer);
        }
        await driver.stop();
      },
    };
  } catch (error) {
    await driver.stop();
    throw error;
  }
}

/** Xvfb and a way to open WebKit sessions on it; `stop()` ends both. */
export async function startWebKit() {
  const xvfb = await startXvfb();
  const sessions = new Set();
  return {
    display: xvfb.display,
    async newSession() {
      const session = await startWebKitSession(xvfb.display);
      sessions.add(session);
      return {
        browser: session.browser,
        close: async (politely = true) => {
          sessions.delete(session);
          await session.close(politely);
        },
      };
    },
    async stop() {
      await Promise.all([...sessions].map((session) => session.close()));
      await xvfb.stop();
    },
  };
}

/** WebDriver's key codes for the key names the tests use (Playwright's and Puppeteer's names). */
export const webdriverKeys = {
  Enter: '\uE007',
  Escape: '\uE00C',
  Tab: '\uE004',
  Backspace: '\uE003',
  Delete: '\uE017',
  Space: ' ',
  ArrowLeft: '\uE012',
  ArrowUp: '\uE013',
  ArrowRight: '\uE014',
  ArrowDown: '\uE015',
  Home: '\uE011',
  End: '\uE010',
  PageUp: '\uE00E',
  PageDown: '\uE00F',
  Shift: '\uE008',
  Control: '\uE009',
  Alt: '\uE00A',
  Meta: '\uE03D',
};

const webdriverKey = (name) => {
  if (name in webdriverKeys) return webdriverKeys[name];
  if ([...name].length === 1) return name;
  throw new Error(`No WebDriver key for "${name}"`);
};

/**
 * Key actions: each key pressed and released in turn (webdriverio's `keys()` holds every key down together);
 * `press('Shift+Tab')` holds the modifiers around the last key.
 */
export const webdriverKeyboard = (browser) => {
  const perform = async (actions) => {
    await browser.performActions([{ type: 'key', id: 'keyboard', actions }]);
    await browser.releaseActions();
  };
  return {
    press: (combo) => {
      const parts = combo === '+' ? ['+'] : combo.split('+').map(webdriverKey);
      const key = parts.pop();
      return perform([
        ...parts.map((value) => ({ type: 'keyDown', value })),
        { type: 'keyDown', value: key },
        { type: 'keyUp', value: key },
        ...parts.reverse().map((value) => ({ type: 'keyUp', value })),
      ]);
    },
    type: (text) =>
      perform(
        [...text].flatMap((value) => [
          { type: 'keyDown', value },
          { type: 'keyUp', value },
        ]),
      ),
    down: (name) => perform([{ type: 'keyDown', value: webdriverKey(name) }]),
    up: (name) => perform([{ type: 'keyUp', value: webdriverKey(name) }]),
  };
};

const buttonCode = (button = 'left') => ({ left: 0, middle: 1, right: 2 })[button];

/** Pointer actions at viewport coordinates of the top-level page. */
export const webdriverMouse = (browser, offset = () => ({ x: 0, y: 0 })) => {
  const pointer = async (actions) => {
    await browser.performActions([
      { type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions },
    ]);
  };
  const at = async (x, y) => {
    const origin = await offset();
    return {
      type: 'pointerMove',
      duration: 0,
      origin: 'viewport',
      x: Math.round(x + origin.x),
      y: Math.round(y + origin.y),
    };
  };
  return {
    move: async (x, y) => pointer([await at(x, y)]),
    down: async ({ button } = {}) => pointer([{ type: 'pointerDown', button: buttonCode(button) }]),
    up: async ({ button } = {}) => pointer([{ type: 'pointerUp', button: buttonCode(button) }]),
    click: async (x, y, { button } = {}) =>
      pointer([
        await at(x, y),
        { type: 'pointerDown', button: buttonCode(button) },
        { type: 'pointerUp', button: buttonCode(button) },
      ]),
  };
};

/**
 * Runs each web-test-runner session in a same-origin iframe sized to the viewport, because a WebKitGTK
 * window is never narrower than 447 px: the tests' phone width (390 px) is the frame's. The frame starts each
 * session at 800 × 600, as the Chromium launcher's pages do.
 */
class FramedSessionManager {
  /** `renew`: ends the session (MiniBrowser and its driver) and starts another, resolving with its browser. */
  constructor(driver, xsettings, renew) {
    this.driver = driver;
    this.xsettings = xsettings;
    this.renew = renew;
    this.urls = new Map();
    this.ready = undefined;
  }

  isActive(id) {
    return this.urls.has(id);
  }

  async getBrowserUrl(id) {
    return this.urls.get(id);
  }

  /** The top-level page holding the session frame, built once, and again when it is lost. */
  host(url) {
    this.ready ??= (async () => {
      await this.driver.navigateTo(`${new URL(url).origin}/?mode=iframe`);
      await this.driver.execute(() => {
        document.head.innerHTML =
          '<style>html,body{margin:0}iframe{position:absolute;left:0;top:0;border:0}</style>';
        document.body.innerHTML = '<iframe id="wtr-session"></iframe>';
      });
    })().catch((error) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  async queueStartSession(id, url) {
    this.urls.set(id, url);
    const open = async () => {
      await this.host(url);
      // What a test file emulated ends with it, as a new page of the Chromium launcher starts afresh.
      if (this.reducedMotion || this.dark) {
        await this.emulateMedia({ colorScheme: null, reducedMotion: 'no-preference' });
      }
      await this.driver.execute((src) => {
        const frame = document.getElementById('wtr-session');
        frame.style.width = '800px';
        frame.style.height = '600px';
        frame.src = src;
        frame.focus();
      }, url);
    };
    try {
      await open();
    } catch (error) {
      // The page holding the frame is broken (WebKitWebDriver then fails every script: "Could not parse script
      // result"), or the browser is gone ("invalid session id": its web process died): the file before this one
      // failed with it, and this one starts on a page built again, in a new browser if need be, rather than
      // failing too.
      const gone = /invalid session id/i.test(error.message);
      console.error(
        `WebKit: the session page failed (${error.message}); building it again${gone ? ' in a new browser' : ''}`,
      );
      if (gone) this.driver = await this.renew();
      this.ready = undefined;
      await open();
    }
  }

  async queueStopSession(id) {
    this.urls.delete(id);
    try {
      await this.driver.executeAsync((done) => {
        const frame = document.getElementById('wtr-session');
        const settled = () => {
          frame.removeEventListener('load', settled);
          frame.removeEventListener('error', settled);
          done();
        };
        frame.addEventListener('load', settled);
        frame.addEventListener('error', settled);
        frame.src = 'about:blank';
      });
    } catch (error) {
      // The file's tests have ended (web-test-runner reports how); the next session builds the page again.
      console.error(`WebKit: the session page failed (${error.message}); the next file builds it again`);
      this.ready = undefined;
    }
    return {};
  }

  setViewport({ width, height }) {
    return this.driver.execute(
      (w, h) => {
        const frame = document.getElementById('wtr-session');
        frame.style.width = `${w}px`;
        frame.style.height = `${h}px`;
      },
      width,
      height,
    );
  }

  /**
   * `prefers-color-scheme` and `prefers-reduced-motion`, for the whole browser, through GTK's settings
   * (`startXSettings`): the theme (Adwaita or Adwaita-dark) and `gtk-enable-animations`; resolves once the
   * frame's document matches them. (An iframe's `color-scheme` does not reach its document's media in WebKitGTK.)
   */
  async emulateMedia({ colorScheme, reducedMotion }) {
    const settings = {};
    const wanted = {};
    if (colorScheme !== undefined) {
      if (colorScheme && !['dark', 'light'].includes(colorScheme)) {
        throw new Error(`WebKit cannot emulate colorScheme "${colorScheme}"`);
      }
      const dark = colorScheme === 'dark';
      settings['Net/ThemeName'] = dark ? '"Adwaita-dark"' : '"Adwaita"';
      wanted['(prefers-color-scheme: dark)'] = dark;
      this.dark = dark;
    }
    if (reducedMotion !== undefined) {
      const reduce = reducedMotion === 'reduce';
      settings['Gtk/EnableAnimations'] = reduce ? 0 : 1;
      wanted['(prefers-reduced-motion: reduce)'] = reduce;
      this.reducedMotion = reduce;
    }
    if (Object.keys(settings).length === 0) return;
    this.xsettings.set(settings);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const applied = await this.driver.execute((queries) => {
        const view = document.getElementById('wtr-session').contentWindow;
        return Object.entries(queries).every(
          ([query, matches]) => view.matchMedia(query).matches === matches,
        );
      }, wanted);
      if (applied) return;
      if (Date.now() > deadline) {
        throw new Error(`WebKit did not apply ${JSON.stringify({ colorScheme, reducedMotion })} within 10 s`);
      }
      await delay(50);
    }
  }

  performActions(_id, actions) {
    return this.driver.performActions(actions);
  }

  sendKeys(_id, keys) {
    return webdriverKeyboard(this.driver).type(keys.join(''));
  }

  async takeScreenshot(_id, locator) {
    const frame = await this.driver.$('#wtr-session');
    await this.driver.switchFrame(frame);
    try {
      const elementData = await this.driver.execute(locator, []);
      const element = await this.driver.$(elementData).getElement();
      return Buffer.from(await this.driver.takeElementScreenshot(element.elementId), 'base64');
    } finally {
      await this.driver.switchFrame(null);
    }
  }
}

/**
 * WebKit for web-test-runner: @web/test-runner-webdriver's launcher with Xvfb and WebKitWebDriver started
 * (and stopped) by it, sessions in a viewport-sized frame, and the test commands (`sendKeys`, `setViewport`,
 * `sendMouse`, `emulateMedia`) served through a page object of the shape @web/test-runner-commands drives
 * for its Playwright launcher: its WebDriver branch cannot set a viewport, and types keys as one chord.
 */
class WebKitLauncher extends WebdriverLauncher {
  constructor() {
    super({ capabilities: webkitCapabilities() });
    this.type = 'playwright';
  }

  async initialize(config, testFiles) {
    await super.initialize(config, testFiles);
    this.name = 'WebKit';
  }

  async createDriverManager() {
    if (!this.config) throw new Error('Not initialized');
    try {
      this.xvfb = await startXvfb();
      this.xsettings = await startXSettings(this.xvfb.display);
      this.session = await startWebKitSession(this.xvfb.display);
      this.driver = this.session.browser;
      this.driverManager = new FramedSessionManager(this.driver, this.xsettings, async () => {
        await this.session?.close(false);
        this.session = await startWebKitSession(this.xvfb.display);
        this.driver = this.session.browser;
        return this.driver;
      });
      this.setupHeartbeat();
      return this.driverManager;
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  async stop() {
    if (this.pendingHeartbeat != null) clearInterval(this.pendingHeartbeat);
    await this.session?.close();
    await this.xsettings?.stop();
    await this.xvfb?.stop();
    this.session = undefined;
    this.xsettings = undefined;
    this.xvfb = undefined;
    this.driver = undefined;
    this.driverManager = undefined;
  }

  /** The page object @web/test-runner-commands' Playwright branches call. */
  getPage() {
    const manager = this.driverManager;
    if (!manager) throw new Error('WebKit is not started');
    return {
      setViewportSize: (size) => manager.setViewport(size),
      emulateMedia: (media) => manager.emulateMedia(media),
      keyboard: webdriverKeyboard(this.driver),
      mouse: webdriverMouse(this.driver),
    };
  }
}

const launchers = {
  chromium: () =>
    chromeLauncher({
      launchOptions: { executablePath: chromiumPath(), headless: true, args: chromiumFlags },
    }),
  firefox: () => new FirefoxLauncher(),
  webkit: () => new WebKitLauncher(),
};

/** web-test-runner launchers for the engines in WTR_BROWSERS (all three when unset). */
export const browsers = pickEngines(process.env.WTR_BROWSERS).map((name) => launchers[name]());
