/**
 * Playwright's locators and page, as driver/api.ts lists them, for Firefox and WebKit: each call runs
 * driver/in-page.ts's engine in the page (or in a frame of it) through a `Tab`, the little each driver must do
 * (driver/firefox.ts over puppeteer-core, driver/webkit.ts over webdriverio). Clicks and keys are the
 * browser's own input (pointer and key actions), at the element's centre once it is visible, still and the one
 * a click there reaches, as Playwright's are. Every wait polls until its deadline (15 s by default).
 */
import { readFileSync } from 'node:fs';
import { transformSync } from 'esbuild';
import type {
  Box,
  BrowserContext,
  Engine,
  FrameLocator,
  Locator,
  Page,
  PageEvents,
  Request,
  Response,
  RoleOptions,
  TextOrRegExp,
} from './api.ts';
import type { Request as EngineRequest, Outcome, Step, TextMatch } from './in-page.ts';
import type { Exchange, RecordingProxy } from './proxy.ts';

/** What a driver does for one tab (a page): navigation, the engine in a frame, input, pictures. */
export interface Tab {
  goto(url: string): Promise<void>;
  url(): Promise<string>;
  back(): Promise<void>;
  reload(): Promise<void>;
  /** Evaluates `expression` in the frame reached through `frames` (each a chain of steps to an iframe). */
  evaluate(frames: Step[][], expression: string): Promise<unknown>;
  /** A click at viewport coordinates of the page. */
  click(x: number, y: number): Promise<void>;
  /** A key press (Playwright's key names, `Shift+Tab`), to what has focus. */
  press(key: string): Promise<void>;
  screenshot(path: string, fullPage: boolean): Promise<void>;
  bringToFront(): Promise<void>;
  close(): Promise<void>;
}

export const defaultTimeout = 15_000;

/**
 * The longest one driver call may take (a navigation: the page's load included) before it fails: a browser that
 * stops answering (a dialog of its own, a stuck command) fails the test with a message instead of hanging it.
 */
export const callTimeout = { navigation: 90_000, other: 45_000 };

/** `work`, or an error naming `what` once `ms` have passed without an answer. */
export function within<T>(ms: number, what: string, work: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer from the browser in ${ms / 1000} s`)), ms);
  });
  return Promise.race([work(), expired]).finally(() => clearTimeout(timer));
}

const navigations = new Set(['goto', 'back', 'reload']);

/** `tab` with each of its calls bounded by `callTimeout` (a call past it rejects; see `within`). */
export function boundedTab<T extends Tab>(engine: Engine, tab: T): T {
  return new Proxy(tab, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const name = String(property);
      const ms = navigations.has(name) ? callTimeout.navigation : callTimeout.other;
      return (...args: unknown[]) =>
        within(ms, `${engine}: ${name}`, () => Promise.resolve(value.apply(target, args)));
    },
  });
}

const engineSource = (() => {
  const source = readFileSync(new URL('./in-page.ts', import.meta.url), 'utf8');
  return transformSync(source, { loader: 'ts', format: 'iife', globalName: '__e2eEngine', target: 'es2020' })
    .code;
})();

/** The engine and a request, as one expression that yields an `Outcome`. */
export const engineExpression = (request: EngineRequest) => {
  const fn =
    request.op === 'page' || request.op === 'all'
      ? request.fn
      : request.op === 'element' && request.action === 'evaluate'
        ? (request.arg as { fn: string }).fn
        : undefined;
  // tsx's compiled functions call `__name`: it is given.
  return `(() => { const __name = (f) => f; ${engineSource}; return __e2eEngine.run(${JSON.stringify(request)}, ${fn ?? 'undefined'}); })()`;
};

const textMatch = (text: TextOrRegExp, exact?: boolean): TextMatch =>
  typeof text === 'string'
    ? { string: text, exact: exact ?? false }
    : { source: text.source, flags: text.flags };

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Retry extends Error {}

/** Errors of a page that is navigating or a frame not there yet: worth asking again. */
const transient = (error: unknown) =>
  error instanceof Retry ||
  /navigat|context|detached|destroyed|stale|no such (frame|element|window)|not (attached|found)|unload|target closed|execution|JavaScript|Cannot find|is not defined/i.test(
    String((error as Error)?.message ?? error),
  );

/** Playwright's URL globs: `**` any characters, `*` any but `/`, everything else literal. */
export function globMatches(glob: string, url: string): boolean {
  let pattern = '';
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i] as string;
    if (char === '*' && glob[i + 1] === '*') {
      pattern += '.*';
      i += 1;
    } else if (char === '*') pattern += '[^/]*';
    else pattern += char.replace(/[.+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${pattern}$`).test(url);
}

function exchangeRequest(exchange: Exchange): Request {
  return {
    url: () => exchange.url,
    headers: () => exchange.headers,
    resourceType: () => exchange.resourceType,
  };
}

function exchangeResponse(exchange: Exchange): Response {
  return {
    url: () => exchange.url,
    status: () => exchange.status ?? 0,
    text: async () => exchange.body ?? '',
    json: async () => JSON.parse(exchange.body ?? 'null'),
  };
}

class EngineLocator implements Locator {
  constructor(
    private readonly page: EnginePage,
    private readonly frames: Step[][],
    readonly steps: Step[],
    private readonly description: string,
  ) {}

  private with(step: Step, description: string) {
    return new EngineLocator(
      this.page,
      this.frames,
      [...this.steps, step],
      `${this.description}${description}`,
    );
  }

  locator(selector: string) {
    return this.with({ kind: 'css', selector }, ` ${selector}`);
  }
  getByRole(role: string, options: RoleOptions = {}) {
    return this.with(
      {
        kind: 'role',
        role,
        ...(options.name !== undefined ? { name: textMatch(options.name, options.exact) } : {}),
        ...(options.level !== undefined ? { level: options.level } : {}),
      },
      ` role=${role}[name=${String(options.name ?? '')}]`,
    );
  }
  getByText(text: TextOrRegExp, options: { exact?: boolean } = {}) {
    return this.with({ kind: 'text', text: textMatch(text, options.exact) }, ` text=${String(text)}`);
  }
  getByLabel(text: TextOrRegExp, options: { exact?: boolean } = {}) {
    return this.with({ kind: 'label', text: textMatch(text, options.exact) }, ` label=${String(text)}`);
  }
  filter(options: { hasText?: TextOrRegExp; has?: Locator }) {
    let result: EngineLocator = this;
    if (options.hasText !== undefined) {
      result = result.with(
        { kind: 'hasText', text: textMatch(options.hasText) },
        ` >> hasText=${options.hasText}`,
      );
    }
    if (options.has)
      result = result.with({ kind: 'has', steps: (options.has as EngineLocator).steps }, ' >> has');
    return result;
  }
  first() {
    return this.nth(0);
  }
  nth(index: number) {
    return this.with({ kind: 'nth', index }, ` >> nth=${index}`);
  }
  or(other: Locator) {
    return new EngineLocator(
      this.page,
      this.frames,
      [{ kind: 'or', branches: [this.steps, (other as EngineLocator).steps] }],
      `${this.description} | ${(other as EngineLocator).description}`,
    );
  }

  private call(request: EngineRequest, timeout = defaultTimeout, what = 'locate') {
    return this.page.run(this.frames, request, timeout, `${what} ${this.description}`);
  }

  private element(
    action: Extract<EngineRequest, { op: 'element' }>['action'],
    arg?: unknown,
    timeout?: number,
  ) {
    return this.call({ op: 'element', steps: this.steps, action, strict: true, arg }, timeout, action);
  }

  async count() {
    return (await this.call({ op: 'count', steps: this.steps })) as number;
  }

  async waitFor(options: { state?: 'attached' | 'detached' | 'visible' | 'hidden'; timeout?: number } = {}) {
    const state = options.state ?? 'visible';
    const deadline = Date.now() + (options.timeout ?? defaultTimeout);
    let last: { count: number; visible: boolean } | undefined;
    while (Date.now() < deadline) {
      last = (await this.call({ op: 'state', steps: this.steps }, deadline - Date.now())) as typeof last;
      if (!last) continue;
      if (last.count > 1 && (state === 'visible' || state === 'attached')) {
        throw new Error(`strict mode: ${last.count} elements match ${this.description}`);
      }
      const done =
        state === 'attached'
          ? last.count > 0
          : state === 'detached'
            ? last.count === 0
            : state === 'visible'
              ? last.count === 1 && last.visible
              : last.count === 0 || !last.visible;
      if (done) return;
      await delay(100);
    }
    throw new Error(
      `waiting for ${this.description} to be ${state} timed out (last: ${JSON.stringify(last)})`,
    );
  }

  /**
   * Clicks the element's centre, again when the click reached something else (the page moved between finding the
   * point and clicking it: in-page.ts's click guard stopped it before the page saw it), as Playwright does.
   */
  async click() {
    const deadline = Date.now() + defaultTimeout;
    for (;;) {
      const point = (await this.element('point', undefined, Math.max(1000, deadline - Date.now()))) as {
        x: number;
        y: number;
      };
      const offset = await this.page.frameOffset(this.frames);
      await this.page.tab.click(point.x + offset.x, point.y + offset.y);
      // Asked once: a click that navigated or closed the frame took its document and the guard with it, and went.
      const result = (await this.page.tab
        .evaluate(this.frames, engineExpression({ op: 'clickResult' }))
        .catch(() => undefined)) as
        | { ok: boolean; value?: { hit?: boolean; where?: string } | null }
        | undefined;
      const went = result?.ok ? result.value : undefined;
      if (went?.hit !== false) return;
      if (Date.now() >= deadline) {
        throw new Error(`click ${this.description}: the click reached ${went.where} instead`);
      }
      await delay(100);
    }
  }

  async fill(value: string) {
    await this.element('fill', value);
  }

  async press(key: string) {
    // Each frame on the way gets focus from its parent first: a script's focus() in a cross-origin frame does
    // not take it from the page in WebKit, and the keys would go to the page.
    for (let i = 0; i < this.frames.length; i += 1) {
      await this.page.run(
        this.frames.slice(0, i),
        { op: 'element', steps: this.frames[i] as Step[], action: 'focus', strict: true },
        defaultTimeout,
        `focus frame ${i + 1} of ${this.description}`,
      );
    }
    if (!(await this.element('focus'))) {
      // WebKit lets a script focus an element of a cross-origin frame only once the user has used the frame: a
      // Shift press (it types nothing, activates nothing) is that use, as a shopper's click or key would be.
      await this.page.tab.press('Shift');
      if (!(await this.element('focus')))
        throw new Error(`press ${key}: ${this.description} cannot take focus`);
    }
    await this.page.tab.press(key);
  }

  async selectOption(value: string | { label: string }) {
    return this.element('selectOption', typeof value === 'string' ? { value } : value);
  }

  async textContent() {
    return (await this.element('textContent')) as string | null;
  }

  async inputValue() {
    return (await this.element('inputValue')) as string;
  }

  async isVisible() {
    const state = (await this.call({ op: 'state', steps: this.steps })) as {
      count: number;
      visible: boolean;
    };
    if (state.count > 1) throw new Error(`strict mode: ${state.count} elements match ${this.description}`);
    return state.visible;
  }

  async isDisabled() {
    return (await this.element('isDisabled')) as boolean;
  }

  async boundingBox() {
    const box = (await this.element('boundingBox')) as Box | null;
    if (!box) return null;
    const offset = await this.page.frameOffset(this.frames);
    return { ...box, x: box.x + offset.x, y: box.y + offset.y };
  }

  // biome-ignore lint/suspicious/noExplicitAny: as in api.ts
  async evaluate<R, A = undefined>(fn: (element: any, arg: A) => R | Promise<R>, arg?: A) {
    return (await this.element('evaluate', { fn: fn.toString(), arg })) as R;
  }

  // biome-ignore lint/suspicious/noExplicitAny: as in api.ts
  async evaluateAll<R, A = undefined>(fn: (elements: any[], arg: A) => R | Promise<R>, arg?: A) {
    return (await this.call({ op: 'all', steps: this.steps, fn: fn.toString(), arg })) as R;
  }
}

class EngineFrameLocator implements FrameLocator {
  constructor(
    private readonly page: EnginePage,
    private readonly frames: Step[][],
    private readonly description: string,
  ) {}
  private root() {
    return new EngineLocator(this.page, this.frames, [], this.description);
  }
  locator(selector: string) {
    return this.root().locator(selector);
  }
  getByRole(role: string, options?: RoleOptions) {
    return this.root().getByRole(role, options);
  }
  getByText(text: TextOrRegExp, options?: { exact?: boolean }) {
    return this.root().getByText(text, options);
  }
  getByLabel(text: TextOrRegExp, options?: { exact?: boolean }) {
    return this.root().getByLabel(text, options);
  }
}

export class EnginePage implements Page {
  private lastUrl = 'about:blank';
  private errorsSeen = 0;
  private readonly errorListeners = new Set<(error: Error) => unknown>();
  private readonly unsubscribe: Array<() => void> = [];
  private closed = false;

  constructor(
    readonly engine: Engine,
    readonly tab: Tab,
    private readonly proxy: () => RecordingProxy,
    private readonly onClose: (page: EnginePage) => void,
  ) {}

  /** Runs an engine request, again while the page navigates or the element is not ready, until `timeout`. */
  async run(frames: Step[][], request: EngineRequest, timeout: number, what: string): Promise<unknown> {
    const deadline = Date.now() + timeout;
    let last = '';
    for (;;) {
      try {
        const outcome = (await this.tab.evaluate(frames, engineExpression(request))) as Outcome | undefined;
        if (!outcome) throw new Retry('no answer');
        if (frames.length === 0) await this.drainErrors();
        if (outcome.ok) return outcome.value;
        if (!outcome.retry) throw new Error(`${what}: ${outcome.message}`);
        last = outcome.message;
      } catch (error) {
        const message = String((error as Error).message ?? error);
        // As in Playwright: in a frame that is not there (any more), a locator matches nothing.
        if (request.op === 'state' && message.includes('no such frame')) return { count: 0, visible: false };
        if (!transient(error)) throw error;
        last = message;
      }
      if (Date.now() >= deadline) throw new Error(`${what}: timed out after ${timeout} ms (${last})`);
      await delay(100);
    }
  }

  /** Where the frame reached through `frames` has its viewport, in the page's. */
  async frameOffset(frames: Step[][]) {
    let x = 0;
    let y = 0;
    for (let i = 0; i < frames.length; i += 1) {
      const offset = (await this.run(
        frames.slice(0, i),
        { op: 'frameOffset', steps: frames[i] as Step[] },
        defaultTimeout,
        'frame',
      )) as { x: number; y: number };
      x += offset.x;
      y += offset.y;
    }
    return { x, y };
  }

  /** Uncaught errors the init script kept (driver/init-script.ts), to the `pageerror` listeners. */
  private async drainErrors() {
    if (this.errorListeners.size === 0) return;
    const errors = (await this.tab.evaluate(
      [],
      'JSON.parse(sessionStorage.getItem("e2e-errors") ?? "[]")',
    )) as string[] | undefined;
    if (!errors) return;
    if (errors.length < this.errorsSeen) this.errorsSeen = 0;
    const url = await this.tab.url();
    for (const message of errors.slice(this.errorsSeen)) {
      for (const listener of this.errorListeners) {
        const error = new Error(message);
        Object.defineProperty(error, 'url', { value: url });
        listener(error);
      }
    }
    this.errorsSeen = errors.length;
  }

  private async refreshUrl() {
    this.lastUrl = await this.tab.url();
    return this.lastUrl;
  }

  private async loaded(timeout = defaultTimeout) {
    await this.run([], { op: 'page', fn: '() => document.readyState === "complete"' }, timeout, 'load').then(
      async (complete) => {
        if (!complete) {
          await this.waitForFunction(() => document.readyState === 'complete', undefined, { timeout });
        }
      },
    );
  }

  async goto(url: string) {
    await this.drainErrors().catch(() => undefined);
    await this.tab.goto(url);
    await this.refreshUrl();
    return null;
  }

  url() {
    return this.lastUrl;
  }

  async waitForURL(url: string, options: { timeout?: number } = {}) {
    const timeout = options.timeout ?? defaultTimeout;
    const deadline = Date.now() + timeout;
    while (Date.now() < deadline) {
      const current = await this.tab.url().catch(() => '');
      if (current && globMatches(url, current)) {
        this.lastUrl = current;
        await this.loaded(Math.max(1000, deadline - Date.now()));
        return;
      }
      await delay(100);
    }
    throw new Error(`waiting for URL ${url} timed out (at ${await this.tab.url().catch(() => '?')})`);
  }

  async waitForLoadState() {
    await this.loaded();
    await this.refreshUrl();
  }

  async goBack() {
    await this.drainErrors().catch(() => undefined);
    await this.tab.back();
    await this.loaded();
    await this.refreshUrl();
    return null;
  }

  async reload() {
    await this.tab.reload();
    await this.loaded();
    await this.refreshUrl();
    return null;
  }

  locator(selector: string) {
    return new EngineLocator(this, [], [{ kind: 'css', selector }], selector);
  }
  getByRole(role: string, options?: RoleOptions) {
    return new EngineLocator(this, [], [], 'page').getByRole(role, options);
  }
  getByText(text: TextOrRegExp, options?: { exact?: boolean }) {
    return new EngineLocator(this, [], [], 'page').getByText(text, options);
  }
  getByLabel(text: TextOrRegExp, options?: { exact?: boolean }) {
    return new EngineLocator(this, [], [], 'page').getByLabel(text, options);
  }
  frameLocator(selector: string) {
    return new EngineFrameLocator(this, [[{ kind: 'css', selector }]], `frame(${selector})`);
  }

  async evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A) {
    const value = (await this.run(
      [],
      { op: 'page', fn: fn.toString(), arg },
      defaultTimeout,
      'evaluate',
    )) as R;
    await this.refreshUrl().catch(() => undefined);
    return value;
  }

  async waitForFunction<A>(fn: (arg: A) => unknown, arg?: A, options: { timeout?: number } = {}) {
    const timeout = options.timeout ?? defaultTimeout;
    const deadline = Date.now() + timeout;
    let last: unknown;
    while (Date.now() < deadline) {
      try {
        last = await this.run(
          [],
          { op: 'page', fn: fn.toString(), arg },
          deadline - Date.now(),
          'waitForFunction',
        );
        if (last) {
          await this.refreshUrl().catch(() => undefined);
          return last;
        }
      } catch (error) {
        if (Date.now() >= deadline) throw error;
      }
      await delay(100);
    }
    throw new Error(`waitForFunction timed out after ${timeout} ms: ${fn.toString().slice(0, 200)}`);
  }

  async waitForTimeout(ms: number) {
    await delay(ms);
  }

  waitForResponse(predicate: (response: Response) => boolean) {
    return new Promise<Response>((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        reject(new Error('waitForResponse timed out'));
      }, defaultTimeout);
      const stop = this.proxy().onResponse((exchange) => {
        const response = exchangeResponse(exchange);
        if (!predicate(response)) return;
        clearTimeout(timer);
        stop();
        resolve(response);
      });
    });
  }

  on<E extends keyof PageEvents>(event: E, listener: (value: PageEvents[E]) => unknown) {
    if (event === 'pageerror') {
      this.errorListeners.add(listener as (error: Error) => unknown);
    } else if (event === 'request') {
      this.unsubscribe.push(
        this.proxy().onRequest((exchange) =>
          (listener as (r: Request) => unknown)(exchangeRequest(exchange)),
        ),
      );
    } else if (event === 'response') {
      this.unsubscribe.push(
        this.proxy().onResponse((exchange) =>
          (listener as (r: Response) => unknown)(exchangeResponse(exchange)),
        ),
      );
    } else throw new Error(`page.on('${event}') is not supported by the e2e driver`);
    return this;
  }

  async content() {
    return (await this.evaluate(
      () => `${document.doctype ? '<!DOCTYPE html>' : ''}${document.documentElement.outerHTML}`,
    )) as string;
  }

  async screenshot(options: { path: string; fullPage?: boolean }) {
    await this.tab.screenshot(options.path, options.fullPage ?? false);
    return null;
  }

  bringToFront() {
    return this.tab.bringToFront();
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    for (const stop of this.unsubscribe) stop();
    await this.tab.close().catch(() => undefined);
    this.onClose(this);
  }
}

/** The pages of one context, for the drivers to build on. */
export abstract class EngineContext implements BrowserContext {
  protected readonly open = new Set<EnginePage>();
  private readonly closeListeners = new Set<() => void>();
  private closed = false;

  constructor(
    readonly engine: Engine,
    protected readonly proxy: () => RecordingProxy,
  ) {}

  protected abstract newTab(): Promise<Tab>;
  /** The next tab the page opens (a link with target=_blank), beside `known`. */
  protected abstract nextTab(known: Tab[], timeout: number): Promise<Tab>;
  protected abstract closeContext(): Promise<void>;

  protected adopt(tab: Tab): EnginePage {
    const page = new EnginePage(this.engine, tab, this.proxy, (closed) => this.open.delete(closed));
    this.open.add(page);
    return page;
  }

  async newPage() {
    return this.adopt(await this.newTab());
  }

  pages() {
    return [...this.open];
  }

  async waitForEvent(event: 'page') {
    if (event !== 'page') throw new Error(`context.waitForEvent('${event}') is not supported`);
    const deadline = Date.now() + defaultTimeout;
    const page = this.adopt(
      await this.nextTab(
        [...this.open].map((p) => p.tab),
        defaultTimeout,
      ),
    );
    // A new tab starts at about:blank before it navigates to where it was opened for (as Playwright, skip it).
    while ((await page.tab.url().catch(() => 'about:blank')) === 'about:blank') {
      if (Date.now() > deadline) throw new Error('the new tab stayed at about:blank');
      await delay(100);
    }
    await page.waitForLoadState();
    return page;
  }

  on(_event: 'close', listener: () => void) {
    this.closeListeners.add(listener);
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    for (const page of [...this.open]) await page.close();
    await this.closeContext();
    for (const listener of this.closeListeners) listener();
  }
}
