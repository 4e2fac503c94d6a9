/**
 * What the end-to-end tests may ask of a browser: a small subset of Playwright's API, so that the tests read
 * the same in every engine. In Chromium these are Playwright's own objects (playwright-core drives Debian's
 * Chromium, as before); in Firefox and WebKit, which Playwright cannot drive from Debian's packages, they are
 * driver/page.ts's, over puppeteer-core (Firefox, WebDriver BiDi) and webdriverio (WebKit, WebDriver classic).
 */

export type Engine = 'chromium' | 'firefox' | 'webkit';

export type TextOrRegExp = string | RegExp;

export interface RoleOptions {
  name?: TextOrRegExp;
  exact?: boolean;
  level?: number;
}

export interface Finder {
  locator(selector: string): Locator;
  getByRole(role: string, options?: RoleOptions): Locator;
  getByText(text: TextOrRegExp, options?: { exact?: boolean }): Locator;
  getByLabel(text: TextOrRegExp, options?: { exact?: boolean }): Locator;
}

export type FrameLocator = Finder;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Locator extends Finder {
  filter(options: { hasText?: TextOrRegExp; has?: Locator }): Locator;
  first(): Locator;
  nth(index: number): Locator;
  or(other: Locator): Locator;
  count(): Promise<number>;
  waitFor(options?: {
    state?: 'attached' | 'detached' | 'visible' | 'hidden';
    timeout?: number;
  }): Promise<void>;
  click(): Promise<void>;
  fill(value: string): Promise<void>;
  press(key: string): Promise<void>;
  selectOption(value: string | { label: string }): Promise<unknown>;
  textContent(): Promise<string | null>;
  inputValue(): Promise<string>;
  isVisible(): Promise<boolean>;
  isDisabled(): Promise<boolean>;
  boundingBox(): Promise<Box | null>;
  // biome-ignore lint/suspicious/noExplicitAny: the element's type is the caller's to name, as in Playwright
  evaluate<R, A = undefined>(fn: (element: any, arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  evaluateAll<R, A = undefined>(fn: (elements: any[], arg: A) => R | Promise<R>, arg?: A): Promise<R>;
}

export interface Request {
  url(): string;
  headers(): Record<string, string>;
  resourceType(): string;
}

export interface Response {
  url(): string;
  status(): number;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

export interface PageEvents {
  request: Request;
  response: Response;
  pageerror: Error;
}

export interface Page extends Finder {
  goto(url: string): Promise<unknown>;
  url(): string;
  waitForURL(url: string, options?: { timeout?: number }): Promise<void>;
  goBack(): Promise<unknown>;
  reload(): Promise<unknown>;
  frameLocator(selector: string): FrameLocator;
  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  waitForFunction<A>(fn: (arg: A) => unknown, arg?: A, options?: { timeout?: number }): Promise<unknown>;
  waitForTimeout(ms: number): Promise<void>;
  waitForResponse(predicate: (response: Response) => boolean): Promise<Response>;
  on<E extends keyof PageEvents>(event: E, listener: (value: PageEvents[E]) => unknown): unknown;
  content(): Promise<string>;
  screenshot(options: { path: string; fullPage?: boolean; animations?: 'disabled' }): Promise<unknown>;
  bringToFront(): Promise<void>;
  close(): Promise<void>;
  waitForLoadState(): Promise<void>;
}

export interface BrowserContext {
  newPage(): Promise<Page>;
  pages(): Page[];
  waitForEvent(event: 'page'): Promise<Page>;
  close(): Promise<void>;
}

export interface ContextOptions {
  mobile?: boolean;
}

/** A browser of one engine: fresh contexts (own cookies and storage) with the event recorder in each page. */
export interface Browser {
  readonly engine: Engine;
  newContext(options?: ContextOptions): Promise<BrowserContext>;
  /** Lets `origin`'s pages use the clipboard (Chromium asks; Firefox and WebKit need no grant for a click's copy). */
  grantClipboard(context: BrowserContext, origin: string): Promise<void>;
  /** The text on the clipboard, as a shopper pasting it into `page` would get it. */
  clipboardText(page: Page): Promise<string>;
  close(): Promise<void>;
}
