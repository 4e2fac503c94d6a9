// Shared steps for the <crypto-checkout> browser tests (the backend helpers are in ../support.ts).
import { expect, fixture } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import '../../src/define.ts';
import type { CryptoCheckout } from '../../src/index.ts';
import { patience, shadowQuery, waitForEvent, waitUntil } from '../support.ts';

/** Renders the element and waits for its first `checkout-ready` (listening before it can fire). */
export async function mountReady(template: TemplateResult, timeout = patience): Promise<CryptoCheckout> {
  const ready = waitForEvent(document, 'checkout-ready', { timeout });
  const el = await fixture<CryptoCheckout>(template);
  await ready;
  await el.updateComplete;
  return el;
}

/** Types into a field of the element as a shopper would (value + an `input` event). */
export async function typeInto(el: CryptoCheckout, selector: string, text: string): Promise<void> {
  const input = shadowQuery<HTMLInputElement>(el, selector);
  input.value = text;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  await el.updateComplete;
}

// A test page sends far more requests than a shopper's (each test's catalogs, quotes, flags): the browser's
// default buffer of 250 entries would stop recording them part-way through a file.
performance.setResourceTimingBufferSize(100_000);

/** How many requests this page has sent whose URL contains `part` (Resource Timing: nothing is patched). */
export function requestsTo(part: string): number {
  return performance.getEntriesByType('resource').filter((e) => e.name.includes(part)).length;
}

/** The visible text of the element's shadow root, spaces collapsed. */
export function textOf(el: CryptoCheckout): string {
  return (el.shadowRoot?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

interface Frame {
  timeoutMs: number;
  state: string;
  url: string;
  display: string;
  /** The seam the frame's timers go through (the new-tab offer, the checkout's end). */
  later(work: () => void, ms: number): unknown;
}

/** A timer of the frame's, held for the test to run: what it does, and after how long it would have. */
export interface HeldTimer {
  work: () => void;
  ms: number;
}

/** Holds the frame's timers from now on (its `later` seam): the test runs each when it wants, none by itself. */
export function frameTimers(frame: Frame): HeldTimer[] {
  const held: HeldTimer[] = [];
  frame.later = (work, ms) => held.push({ work, ms });
  return held;
}

/** The element's internals a test may steer (a narrow, typed view; not public API). */
export interface Internals {
  _navigate(url: string): void;
  /** The payment or ramp page's controller, once its code has loaded (`_loadFrame`, or the main button). */
  _frame?: Frame;
  /** Loads the frame's code (the element prefetches it when idle once the form shows). */
  _loadFrame(): Promise<Frame>;
  /** The view of the element's mode (its state is the view's own). */
  _view?: object;
  /** The quote the attributes fully specified, sent before the view's code (controllers/head-start.ts). */
  _head?: { answer: Promise<unknown> };
}
export const internals = (el: CryptoCheckout) => el as unknown as Internals;

/** Replaces navigation on this one element (redirects would leave the test page) and records it. */
export function captureNavigation(el: CryptoCheckout): string[] {
  const urls: string[] = [];
  internals(el)._navigate = (url) => {
    urls.push(url);
  };
  return urls;
}

/** A method's fee and limits in `fiat` as the catalog states them (what the method line and messages show). */
export async function termsOf(
  country: string,
  fiat: string,
  { side = 'buy', method }: { side?: 'buy' | 'sell'; method?: string } = {},
): Promise<{
  currency: string;
  fixedFee: string;
  min: string | null;
  max: string | null;
  converted: boolean;
}> {
  const catalog = await (await fetch(`/api/catalog?country=${country}`)).json();
  const methods: Array<{ id: string; terms: Array<{ currency: string }> }> =
    side === 'buy' ? catalog.paymentMethods : catalog.payoutMethods;
  const found = methods.find((m) => (method ? m.id === method : m.terms.some((t) => t.currency === fiat)));
  const terms = found?.terms.find((t) => t.currency === fiat);
  if (!terms) throw new Error(`no terms for ${method ?? side} in ${fiat} in ${country}`);
  return terms as never;
}

/** An amount as the element writes it in English (`€7.88`, `$27,777.77`). */
export const moneyEn = (amount: string, currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).format(Number(amount));

/**
 * The options of picker `id` once its list shows: the list's code loads the first time a picker is touched (or
 * when the browser is idle), so a test waits for the list rather than for one update.
 */
export async function optionsOf(el: HTMLElement, id: string): Promise<HTMLElement[]> {
  await waitUntil(
    () => el.shadowRoot!.querySelector(`#${id}-list:not([hidden])`),
    `the ${id} list never showed`,
  );
  return [...el.shadowRoot!.querySelectorAll<HTMLElement>(`#${id}-list [role="option"]`)];
}

/** Opens the picker `selector` with a click (unless it is open) and returns its options once they show. */
export async function openPicker(el: HTMLElement, selector: string): Promise<HTMLElement[]> {
  const input = el.shadowRoot!.querySelector<HTMLInputElement>(selector);
  if (!input) throw new Error(`no ${selector}`);
  if (input.getAttribute('aria-expanded') !== 'true') input.click();
  return optionsOf(el, input.id);
}

/** The country code a flag image shows (`…/flags/de.svg` → `DE`), or ''. */
export const flagCode = (img: Element | null | undefined) =>
  (img?.getAttribute('src')?.match(/\/flags\/([a-z]{2})\.svg$/)?.[1] ?? '').toUpperCase();

/**
 * The methods on offer, as elements holding each one's logo, name and terms: the radios of a short list, or the
 * options of the picker a long list collapses into (opened for the purpose, and left open).
 */
export async function methodEntries(el: CryptoCheckout): Promise<Element[]> {
  const picker = el.shadowRoot!.querySelector<HTMLInputElement>('#method');
  if (!picker) return [...el.shadowRoot!.querySelectorAll('.method')];
  return openPicker(el, '#method');
}

/** The names of the methods on offer (closing a picker opened to read them). */
export async function methodNames(el: CryptoCheckout): Promise<string[]> {
  const names = (await methodEntries(el)).map((m) => m.querySelector('span')!.textContent!);
  const picker = el.shadowRoot!.querySelector<HTMLInputElement>('#method');
  if (picker?.getAttribute('aria-expanded') === 'true') picker.click();
  await el.updateComplete;
  return names;
}

/** Opens a picker and returns its options as [icon text, the rest] (text with spaces collapsed); then closes it. */
export async function pickerOptions(el: CryptoCheckout, selector: string): Promise<[string, string][]> {
  const input = shadowQuery<HTMLInputElement>(el, selector);
  const options = (await openPicker(el, selector)).map((o) => {
    expect(input.getAttribute('aria-expanded')).to.equal('true');
    const icon =
      flagCode(o.querySelector('img.flag')) || (o.querySelector('[aria-hidden]')?.textContent ?? '');
    const text = o.textContent!.replace(o.querySelector('[aria-hidden]')?.textContent ?? '', '');
    return [icon, text.replace(/\s+/g, ' ').trim()] as [string, string];
  });
  input.click();
  await el.updateComplete;
  return options;
}
