/**
 * A backend run the way `createCheckout` and the CLI run it (`createRuntime`: its store on disk or PostgreSQL,
 * the delivery worker, the upstream clients over HTTP), served on a fixed loopback port, and restarted with a
 * new environment on the same port and the same data, as an operator's restart does. The upstream is a sandbox
 * served in this process. Not a test file itself.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSandbox, type SandboxState } from '@crypto-checkout/sandbox';
import { type ServerType, serve } from '@hono/node-server';
import { type Config, loadConfig } from '../src/config.ts';
import { createRuntime, type Runtime } from '../src/process/runtime.ts';
import { productsFile } from './order-fixtures.ts';
import { freePort } from './servers.ts';
import { allowedOrigin, sandboxUpstreamEnv } from './support.ts';

function listen(fetch: (request: Request) => Response | Promise<Response>, port: number) {
  return new Promise<ServerType>((resolve) => {
    const server = serve({ fetch, port, hostname: '127.0.0.1' }, () => resolve(server));
  });
}

function closeServer(server: ServerType) {
  return new Promise<void>((resolve) => {
    (server as ServerType & { closeAllConnections?: () => void }).closeAllConnections?.();
    server.close(() => resolve());
  });
}

export interface Upstream {
  url: string;
  state: SandboxState;
  close(): Promise<void>;
}

/** The sandbox as the upstream, on its own port; its payments webhooks go nowhere (tests send their own). */
export async function startUpstream(): Promise<Upstream> {
  let handler: (request: Request) => Response | Promise<Response> = () => new Response(null, { status: 503 });
  const server = await listen((request) => handler(request), 0);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sandbox = createSandbox({ baseUrl: url, defaultWebhookUrl: 'http://127.0.0.1:9/nowhere' });
  handler = sandbox.app.fetch;
  return { url, state: sandbox.state, close: () => closeServer(server) };
}

export interface RestartableBackend {
  /** `http://127.0.0.1:<port>`, the same across restarts. */
  url: string;
  config: Config;
  runtime: Runtime;
  /** Calls the backend (JSON bodies serialised for you). */
  api(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** Stops it and starts it again with `env` (the whole environment besides the fixed part), same port and data. */
  restart(env: Record<string, string>): Promise<void>;
  /** Stops it (and removes its SQLite directory). */
  close(): Promise<void>;
}

/**
 * `env` is the environment on top of live-style variables pointing at `upstream` (the test secrets of
 * support.ts), PRODUCTS_FILE the fixture catalog, and SQLite in a fresh temporary DATA_DIR unless `env`
 * names a DATABASE_URL.
 */
export async function startRestartable(
  upstream: Upstream,
  env: Record<string, string>,
): Promise<RestartableBackend> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cc-restartable-'));
  const configOf = (own: Record<string, string>) =>
    loadConfig({
      PORT: String(port),
      PUBLIC_URL: url,
      ALLOWED_ORIGINS: allowedOrigin,
      ...sandboxUpstreamEnv(upstream.url),
      PRODUCTS_FILE: productsFile,
      DATA_DIR: dataDir,
      ACCESS_LOG: 'off',
      RATE_LIMIT_PER_MINUTE: '100000',
      ...own,
    });
  let runtime: Runtime;
  let server: ServerType;
  const start = async (own: Record<string, string>) => {
    const config = configOf(own);
    runtime = await createRuntime(config);
    server = await listen(runtime.app.fetch, port);
    backend.config = config;
    backend.runtime = runtime;
  };
  const stop = async () => {
    await closeServer(server);
    await runtime.close();
  };
  const backend: RestartableBackend = {
    url,
    config: undefined as unknown as Config,
    runtime: undefined as unknown as Runtime,
    api(apiPath, init = {}) {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
      const send = () =>
        fetch(`${url}${apiPath}`, {
          ...rest,
          headers,
          ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
        });
      // A keep-alive connection to the instance before a restart can be picked for the first request after it,
      // before this process has seen it closed: sent again on a new connection, as a browser does.
      return send().catch((error: unknown) => {
        const code = (error as { cause?: { code?: string } }).cause?.code;
        if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return send();
        throw error;
      });
    },
    async restart(own) {
      await stop();
      await start(own);
    },
    async close() {
      await stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  await start(env);
  return backend;
}
