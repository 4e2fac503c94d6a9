/**
 * Helpers for the widget's browser tests (`packages/widget/test/browser/*.test.ts`, run by web-test-runner).
 *
 * The backend is real: web-test-runner.config.mjs starts `demo/server.ts` on the sandbox and proxies `/api`,
 * `/sandbox`, `/widget` and `/healthz` from the test page's own origin, so an element under test uses
 * `api="/api"` (the default) as on a storefront. The backend's PUBLIC_URL is the test page's origin: the pay
 * pages, ramp pages and return routes it links to load through the same proxy (same origin as the test).
 *
 * ```ts
 * import { fixture, html, expect } from '@open-wc/testing';
 * import '../../src/define.ts';
 * import { resetSandbox, payOrder, waitForEvent } from '../support.ts';
 *
 * beforeEach(resetSandbox);
 * it('pays', async () => {
 *   const el = await fixture(html`<crypto-checkout mode="pay" product="tshirt"></crypto-checkout>`);
 *   await waitForEvent(el, 'checkout-ready');
 *   // … click "Pay with crypto" …
 *   const order = await waitForEvent(el, 'checkout-order');
 *   await payOrder(order.detail.orderId!);
 *   const done = await waitForEvent(el, 'checkout-complete');
 *   expect(done.detail.status).to.equal('paid');
 * });
 * ```
 *
 * Sandbox controls (packages/sandbox/src/controls/routes.ts): `resetSandbox`, `addFault` (latency, error status,
 * malformed body on an upstream route), `setClock`, `sandboxSettings`, `payOrder`/`expireOrder`/`cancelOrder`
 * (given the backend's order id).
 * Tokens a merchant's server would mint: `checkoutToken`, `customerToken` (server commands; the secret stays
 * in Node). `otherOrigin` gives an origin that serves the same pages but is not this one (wrong-origin tests).
 */
import { waitUntil as openWcWaitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { CheckoutTokenInput, CustomerTokenInput } from '../../backend/src/tokens.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json | undefined };

/** Calls a sandbox control (`/sandbox/control/<path>`) and returns its `data`; throws on a failure. */
export async function sandboxControl<T = unknown>(
  path: string,
  body?: Json | object,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' = 'POST',
): Promise<T> {
  const response = await fetch(`/sandbox/control/${path.replace(/^\//, '')}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: { success?: boolean; data?: T; message?: string } = {};
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    // not JSON: reported below
  }
  if (!response.ok || parsed.success === false) {
    throw new Error(
      `sandbox control ${method} ${path} answered ${response.status}: ${parsed.message ?? text}`,
    );
  }
  return parsed.data as T;
}

/** Forgets every order, session, fault and setting of the sandbox and returns its clock to real time. */
export async function resetSandbox(): Promise<void> {
  // The order a pay view keeps for the Back button belongs to the sandbox that is being reset.
  globalThis.sessionStorage?.clear();
  await sandboxControl('reset');
  await sandboxControl('clock', { reset: true });
}

/** A fault on an upstream route (path under the sandbox, e.g. `/ramp/api/v1/merchant/pricing`, `*` = prefix). */
export interface FaultRule {
  route: string;
  method?: string;
  latencyMs?: number;
  status?: number;
  body?: 'envelope' | 'malformed' | 'html403' | 'empty';
  /** Only the next N matching requests. */
  times?: number;
}

export function addFault(rule: FaultRule): Promise<FaultRule[]> {
  return sandboxControl<FaultRule[]>('faults', rule);
}

export function clearFaults(): Promise<FaultRule[]> {
  return sandboxControl<FaultRule[]>('faults', undefined, 'DELETE');
}

/** Pins (`now`), moves (`advanceMs`) or resets the sandbox's clock. */
export function setClock(change: { now?: string | number; advanceMs?: number; reset?: boolean }) {
  return sandboxControl<{ now: string; pinned: boolean }>('clock', change);
}

/** Changes sandbox settings (see packages/sandbox/src/settings.ts: `orderTtlMs`, `paymentMethodsShape`, `rampRateLimit`, …). */
export function sandboxSettings(settings: Record<string, Json>) {
  return sandboxControl<Record<string, Json>>('settings', settings, 'PATCH');
}

/** The sandbox's API key for the payments API (public sandbox data, see packages/sandbox). */
const sandboxPayKey = 'pay_sandbox_demo';

/**
 * The upstream (sandbox) order behind an order: from the backend's `orderId` (`checkout-order`'s
 * `detail.orderId`; the backend sent it upstream as `externalId`), from the pay page URL (`detail.url`, the
 * order's `link`), or the upstream id itself.
 */
export async function upstreamOrderId(order: string): Promise<string> {
  if (/^https?:|^\//.test(order)) {
    const id = new URL(order, location.href).pathname.split('/').filter(Boolean).at(-1);
    if (!id) throw new Error(`no order id in ${order}`);
    return decodeURIComponent(id);
  }
  const response = await fetch(
    `/sandbox/pay-api/v1/merchants/orders?searchId=${encodeURIComponent(order)}&limit=100`,
    { headers: { 'x-api-key': sandboxPayKey } },
  );
  if (!response.ok)
    throw new Error(`sandbox order search answered ${response.status}: ${await response.text()}`);
  const { data } = (await response.json()) as {
    data: { orders: { id: string; externalId: string | null }[] };
  };
  const found = data.orders.find((candidate) => candidate.externalId === order || candidate.id === order);
  if (!found) throw new Error(`no sandbox order for ${order}`);
  return found.id;
}

/**
 * Pays an order as a payer would (exact, under or over the amount); the sandbox then sends the webhook.
 * `order`: the backend's order id, the pay page URL or the upstream id (see upstreamOrderId).
 */
export async function payOrder(
  order: string,
  kind: 'exact' | 'underpaid' | 'overpaid' = 'exact',
  currency?: string,
) {
  const id = await upstreamOrderId(order);
  return sandboxControl<{ order: Record<string, Json> }>(
    `orders/${encodeURIComponent(id)}/pay`,
    currency ? { kind, currency } : { kind },
  );
}

/** Expires an order now (same `order` forms as payOrder). */
export async function expireOrder(order: string) {
  const id = await upstreamOrderId(order);
  return sandboxControl<{ order: Record<string, Json> }>(`orders/${encodeURIComponent(id)}/expire`);
}

/** Cancels an order now (same `order` forms as payOrder): the backend maps CANCELLED to `cancelled`. */
export async function cancelOrder(order: string) {
  const id = await upstreamOrderId(order);
  return sandboxControl<{ order: Record<string, Json> }>(`orders/${encodeURIComponent(id)}/cancel`);
}

/** A checkout token signed with the test backend's secret, as a merchant's server would mint it. */
export function checkoutToken(input: CheckoutTokenInput): Promise<string> {
  return executeServerCommand<string, CheckoutTokenInput>('crypto-checkout:checkout-token', input);
}

/** A customer token (deposit mode) signed with the test backend's secret. */
export function customerToken(input: CustomerTokenInput): Promise<string> {
  return executeServerCommand<string, CustomerTokenInput>('crypto-checkout:customer-token', input);
}

/** The test backend's admin token (test-only; a storefront never has it) and the origin it believes it has. */
export function backendInfo(): Promise<{ origin: string; adminToken: string }> {
  return executeServerCommand<{ origin: string; adminToken: string }, undefined>('crypto-checkout:backend');
}

/** JSON from the backend through the same proxy the element uses; throws with the error envelope otherwise. */
export async function api<T = unknown>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`/api/${path.replace(/^\//, '')}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
  const body = (await response.json()) as T;
  if (!response.ok)
    throw new Error(
      `${init.method ?? 'GET'} /api/${path} answered ${response.status}: ${JSON.stringify(body)}`,
    );
  return body;
}

/**
 * The same dev server under its other name (localhost ⇄ 127.0.0.1): a different origin serving the same
 * pages, for "messages from a wrong origin are ignored". The backend's ALLOWED_ORIGINS lists both.
 */
export function otherOrigin(): string {
  const url = new URL(location.href);
  url.hostname = url.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  return url.origin;
}

type EventMap = GlobalEventHandlersEventMap;

/**
 * How long a test waits for a condition or an event before it fails: long, since a wait ends as soon as the
 * condition holds, and a loaded CI machine (three engines' suites side by side, WebKit most) can take seconds to
 * render a step that takes milliseconds on a quiet one. Only a failing test ever waits this long; mocha's
 * timeout (web-test-runner.config.mjs) is above it.
 */
export const patience = 20_000;

/**
 * The next `type` event from `target` (optionally the next that `accept`s), or a rejection naming it after
 * `timeout` ms. Typed from GlobalEventHandlersEventMap, so `checkout-*` events come with their detail types.
 * Unlike `oneEvent` from @open-wc/testing it cannot hang a test until mocha's timeout.
 */
export function waitForEvent<K extends keyof EventMap>(
  target: EventTarget,
  type: K,
  { timeout = patience, accept }: { timeout?: number; accept?: (event: EventMap[K]) => boolean } = {},
): Promise<EventMap[K]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      target.removeEventListener(type, listener);
      reject(new Error(`no ${type} event within ${timeout} ms`));
    }, timeout);
    function listener(event: Event) {
      const typed = event as EventMap[K];
      if (accept && !accept(typed)) return;
      clearTimeout(timer);
      target.removeEventListener(type, listener);
      resolve(typed);
    }
    target.addEventListener(type, listener);
  });
}

/**
 * @open-wc/testing's `waitUntil` with `patience` instead of its 1 s by default: a condition the browser meets
 * after a key or a render may take seconds on a loaded machine (WebKit most), and a test waits for the
 * condition, never for a time; mocha's timeout still bounds it.
 */
export function waitUntil(
  predicate: () => unknown,
  message?: string,
  options: { interval?: number; timeout?: number } = {},
): Promise<void> {
  return openWcWaitUntil(predicate, message, { timeout: patience, ...options });
}

/** Records every event of the given types from `target` until `stop()`; `of(type)` lists those of a type. */
export function recordEvents<K extends keyof EventMap>(target: EventTarget, types: readonly K[]) {
  const events: EventMap[K][] = [];
  const listener = (event: Event) => events.push(event as EventMap[K]);
  for (const type of types) target.addEventListener(type, listener);
  return {
    events,
    of: <T extends K>(type: T) => events.filter((event) => event.type === type) as EventMap[T][],
    stop: () => {
      for (const type of types) target.removeEventListener(type, listener);
    },
  };
}

/** The first element matching `selector` in `host`'s shadow root; throws (naming it) when there is none. */
export function shadowQuery<E extends Element = HTMLElement>(host: Element, selector: string): E {
  const found = host.shadowRoot?.querySelector<E>(selector);
  if (!found) throw new Error(`no ${selector} in the shadow root of <${host.localName}>`);
  return found;
}

/** Resolves when this window receives a message whose data is `marker`. */
export function messageArrives(marker: string): Promise<void> {
  return new Promise((resolve) => {
    const listener = (event: MessageEvent) => {
      if (event.data !== marker) return;
      window.removeEventListener('message', listener);
      resolve();
    };
    window.addEventListener('message', listener);
  });
}

/**
 * Resolves once this window has dispatched every message it posted to itself before: messages from one window
 * arrive in the order they were posted, so whatever an earlier one did (or did not do), it has done by then.
 */
export async function messagesDelivered(): Promise<void> {
  const marker = `test:delivered:${Math.random()}`;
  const arrived = messageArrives(marker);
  window.postMessage(marker, location.origin);
  await arrived;
}

/** Makes the backend unreachable (`true`: its connections drop unanswered, as offline) or reachable again. */
export function setBackendDown(down: boolean): Promise<unknown> {
  return executeServerCommand('crypto-checkout:backend-down', down);
}

/**
 * Holds back (`hold`, until `release`) or fails (`fail`: a 503) the dev server's answers for the source file whose
 * path ends with `file` (`internal/lang/sv.ts`, a language's table as the browser tests load it); `count` says how
 * many requests for it came so far. Resolves with that count.
 */
export function holdFile(file: string, how: 'hold' | 'fail' | 'release' | 'count'): Promise<number> {
  return executeServerCommand('crypto-checkout:hold-file', { file, how }) as Promise<number>;
}
