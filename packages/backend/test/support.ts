/**
 * The test stack over real HTTP: the sandbox (the upstream) and the backend, each served by @hono/node-server
 * on an ephemeral port, the backend configured with live-style variables pointing at the sandbox and an
 * in-memory store. Every test file starts its own stack and closes it.
 */
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createSandbox, type SandboxState } from '@crypto-checkout/sandbox';
import { type ServerType, serve } from '@hono/node-server';
import { createApp } from '../src/app.ts';
import type { Clock } from '../src/clock.ts';
import { type Config, loadConfig } from '../src/config.ts';
import type { AppDeps } from '../src/deps.ts';
import type { OnEvent } from '../src/events/fulfilment-events.ts';
import { createDeps } from '../src/process/app-deps.ts';
import type { SharedState } from '../src/shared/redis.ts';
import { createMemoryStore } from '../src/store/memory-store.ts';
import type { Store } from '../src/store/store.ts';

export const testSecrets = {
  checkoutTokenSecret: 'test-checkout-token-secret-0123456789',
  adminToken: 'test-admin-token-0123456789abcdef',
  rampPublicKey: 'pk_sandbox_test',
  rampSecretKey: 'sk_sandbox_test',
  payApiKey: 'pay_sandbox_test',
  payWebhookSecret: 'whsec_sandbox_test',
} as const;

/** The catalog a test merchant sells (live mode refuses the sample catalog). */
export const fixtureProductsFile = fileURLToPath(new URL('./fixtures/products.json', import.meta.url));

/** The secrets and upstream addresses of a backend in live mode against the sandbox at `sandboxUrl`. */
export const sandboxUpstreamEnv = (sandboxUrl: string) => ({
  CHECKOUT_TOKEN_SECRET: testSecrets.checkoutTokenSecret,
  ADMIN_TOKEN: testSecrets.adminToken,
  RAMP_API_URL: `${sandboxUrl}/ramp`,
  RAMP_WIDGET_URL: `${sandboxUrl}/ramp`,
  RAMP_PUBLIC_KEY: testSecrets.rampPublicKey,
  RAMP_SECRET_KEY: testSecrets.rampSecretKey,
  PAY_API_URL: `${sandboxUrl}/pay-api`,
  PAY_API_KEY: testSecrets.payApiKey,
  PAY_WEBHOOK_SECRET: testSecrets.payWebhookSecret,
  // Live mode sells only the merchant's catalog (never the sample one): the fixture stands for it.
  PRODUCTS_FILE: fixtureProductsFile,
});

export const allowedOrigin = 'https://shop.example';

export interface StackOptions {
  /** Extra or overriding environment variables for `loadConfig` (e.g. `UPSTREAM_BUDGET`, `MARKUP`). */
  env?: Record<string, string>;
  /** Changes to the parsed config applied after `loadConfig`. */
  config?: Partial<Config>;
  store?: Store;
  /** Redis shared with other stacks (REDIS_URL's state), as several instances share it. */
  shared?: SharedState;
  /** The backend's clock (e.g. a settable one, to age status syncs without waiting). */
  clock?: Clock;
  /** The in-process hook for fulfilment events (what `createCheckout(config, { onEvent })` gives). */
  onEvent?: OnEvent;
  /**
   * Network transit before each ramp API request reaches the sandbox, in ms (default none): a real upstream is
   * tens to hundreds of ms away, so calls sent together arrive spread out.
   */
  upstreamTransitMs?: () => number;
}

/** The ramp API's traffic as the upstream sees it. */
export interface UpstreamTraffic {
  /** `performance.now()` of each `/ramp/api/v1/merchant/*` request as it reaches the sandbox (after transit). */
  arrivals: number[];
  /** How many of them the sandbox answered 429. */
  throttled: number;
}

/**
 * What the order, webhook and admin helpers need of a backend: its address, its sandbox's, and a call to each.
 * A stack in this process is one; so is any backend reached over HTTP (`backendClient`).
 */
export type BackendClient = Pick<Stack, 'backendUrl' | 'sandboxUrl' | 'api' | 'control'>;

export interface Stack {
  /** The backend, e.g. `http://127.0.0.1:40001` (routes under `/api`). */
  backendUrl: string;
  /** The sandbox root; its ramp API is `${sandboxUrl}/ramp/api/v1/merchant`. */
  sandboxUrl: string;
  /** `${sandboxUrl}/control`: reset, faults, settings, clock, deliveries. */
  controlUrl: string;
  config: Config;
  deps: AppDeps;
  sandbox: SandboxState;
  upstream: UpstreamTraffic;
  /** Calls the backend: `api('/api/catalog')`, JSON bodies serialised for you. */
  api(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** Calls the sandbox controls: `control('POST', '/faults', {...})`. */
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Serves a fetch handler on 127.0.0.1 at a free port. The handler is looked up on each request because both
 * apps need their own URL before they can be built.
 */
type FetchHandler = (request: Request, env?: unknown) => Response | Promise<Response>;

/** The Node bindings are passed on (`env`): the backend reads the client's address from them. */
async function listen(handler: () => FetchHandler) {
  let server: ServerType | undefined;
  const port = await new Promise<number>((resolve) => {
    server = serve(
      { fetch: (request, env) => handler()(request, env), port: 0, hostname: '127.0.0.1' },
      (info) => resolve((info as AddressInfo).port),
    );
  });
  const close = () =>
    new Promise<void>((resolve) => {
      // Open SSE streams would keep close() waiting forever.
      const closable = server as ServerType & { closeAllConnections?: () => void };
      closable.closeAllConnections?.();
      server?.close(() => resolve());
    });
  return { url: `http://127.0.0.1:${port}`, close };
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  let sandboxFetch: (request: Request) => Response | Promise<Response> = () =>
    new Response(null, { status: 503 });
  let backendFetch: FetchHandler = () => new Response(null, { status: 503 });
  const sandboxServer = await listen(() => sandboxFetch);
  const backendServer = await listen(() => backendFetch);
  const sandboxUrl = sandboxServer.url;
  const backendUrl = backendServer.url;

  const sandbox = createSandbox({
    baseUrl: sandboxUrl,
    defaultWebhookUrl: `${backendUrl}/api/webhooks/payments`,
  });
  const upstream: UpstreamTraffic = { arrivals: [], throttled: 0 };
  const transit = options.upstreamTransitMs;
  sandboxFetch = async (request) => {
    if (!new URL(request.url).pathname.startsWith('/ramp/api/v1/merchant/'))
      return sandbox.app.fetch(request);
    if (transit) await new Promise((resolve) => setTimeout(resolve, transit()));
    upstream.arrivals.push(performance.now());
    const response = await sandbox.app.fetch(request);
    if (response.status === 429) upstream.throttled += 1;
    return response;
  };

  const config: Config = {
    ...loadConfig({
      PORT: '0',
      PUBLIC_URL: backendUrl,
      ALLOWED_ORIGINS: allowedOrigin,
      ...sandboxUpstreamEnv(sandboxUrl),
      DATA_DIR: '/nonexistent-memory-store-is-used',
      ACCESS_LOG: 'off',
      RATE_LIMIT_PER_MINUTE: '100000',
      ...options.env,
    }),
    ...options.config,
  };
  const deps = createDeps(config, {
    store: options.store ?? createMemoryStore(),
    ...(options.shared ? { shared: options.shared } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
  });
  const app = createApp(deps);
  backendFetch = app.fetch;

  const { api, control } = backendClient(backendUrl, sandboxUrl);

  return {
    backendUrl,
    sandboxUrl,
    controlUrl: `${sandboxUrl}/control`,
    config,
    deps,
    sandbox: sandbox.state,
    upstream,
    api,
    control,
    async close() {
      await deps.ramp.close?.();
      await deps.store.close();
      await Promise.all([backendServer.close(), sandboxServer.close()]);
    },
  };
}

/** Calls to the backend at `backendUrl` (JSON bodies serialised for you) and to the controls of the sandbox at `sandboxUrl`. */
export function backendClient(backendUrl: string, sandboxUrl: string): BackendClient {
  const api = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const { json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
    return fetch(`${backendUrl}${path}`, {
      ...rest,
      headers,
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
  };

  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${sandboxUrl}/control${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`control ${method} ${path} → ${response.status} ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
  return { backendUrl, sandboxUrl, api, control };
}

/** The most of `times` (ms, ascending) that fall within any sliding window of `windowMs`. */
export function mostInWindow(times: number[], windowMs = 1000): number {
  let most = 0;
  let first = 0;
  for (let last = 0; last < times.length; last += 1) {
    while ((times[last] as number) - (times[first] as number) >= windowMs) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/** Reads a JSON body with a loose type for assertions. */
export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
