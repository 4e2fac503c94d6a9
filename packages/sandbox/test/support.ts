/** Test support: a real sandbox on an ephemeral port, and small HTTP helpers for talking to it. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach } from 'node:test';
import { serve } from '@hono/node-server';
import { createSandbox } from '../src/app.ts';
import type { SandboxSettings } from '../src/settings.ts';
import type { SandboxState } from '../src/state.ts';

export interface RunningSandbox {
  baseUrl: string;
  state: SandboxState;
  close(): Promise<void>;
}

/** Starts `createSandbox` behind `@hono/node-server` on a free port; `close()` stops it. */
export async function startSandbox(settings: Partial<SandboxSettings> = {}): Promise<RunningSandbox> {
  let resolveUrl: (url: string) => void = () => {};
  const ready = new Promise<string>((resolve) => {
    resolveUrl = resolve;
  });
  // The base URL depends on the port, known only once listening; links are built lazily from state.baseUrl,
  // so the sandbox is created with a placeholder that is replaced before the first request.
  const holder: { fetch?: (request: Request) => Response | Promise<Response> } = {};
  const server = serve(
    { fetch: (request) => holder.fetch!(request), port: 0, hostname: '127.0.0.1' },
    (info) => resolveUrl(`http://127.0.0.1:${info.port}`),
  ) as Server;
  const baseUrl = await ready;
  const { app, state } = createSandbox({ baseUrl, settings });
  holder.fetch = app.fetch;
  return {
    baseUrl,
    state,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The ramp API's envelope: `{success, data}`, or `{success: false, message}`. */
export interface Envelope<T> {
  success: boolean;
  data: T;
  message?: string;
}

/**
 * One sandbox for a whole test file, reset before each test: registers the file's `before`, `after` and
 * `beforeEach` hooks (a file's own `beforeEach` hooks run after the reset). Read its URLs inside tests.
 */
export function sandboxPerFile(): { readonly baseUrl: string; readonly api: string } {
  let running: RunningSandbox | undefined;
  before(async () => {
    running = await startSandbox();
  });
  after(() => running?.close());
  beforeEach(async () => {
    await json(`${current().baseUrl}/control/reset`, { method: 'POST' });
  });
  function current(): RunningSandbox {
    if (!running) throw new Error('the sandbox starts in before(); read its URLs inside tests');
    return running;
  }
  return {
    get baseUrl() {
      return current().baseUrl;
    },
    /** The ramp merchant API. */
    get api() {
      return `${current().baseUrl}/ramp/api/v1/merchant`;
    },
  };
}

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** A JSON request; `body` is sent as JSON when given. */
export async function json<T = unknown>(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<JsonResponse<T>> {
  const response = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as T };
}

export interface ReceivedRequest {
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A local HTTP receiver (a merchant's webhook endpoint). `respond` picks the status for the n-th request
 * (0-based); `waitFor(n)` resolves once n requests have arrived.
 */
export async function startReceiver(respond: (index: number) => number = () => 200) {
  const received: ReceivedRequest[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const index = received.length;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = respond(index);
      res.end('{}');
      for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    waitFor(count: number, timeoutMs = 3000): Promise<void> {
      if (received.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} requests, got ${received.length}`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `probe` until it gives a value (a real condition, not a guess at timing); fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** What the sandbox still has to do (`GET /control/pending`). */
export interface Pending {
  onSandboxClock: Array<{ what: string; until: string }>;
  inRealTime: Array<{ what: string; due: string }>;
}

export async function pending(baseUrl: string): Promise<Pending> {
  return (await json<Envelope<Pending>>(`${baseUrl}/control/pending`)).body.data;
}
