/**
 * Several backends as a deployment runs them: the built CLI (`node dist/cli.js`), one process each, on one
 * PostgreSQL and one Redis, with the sandbox as their upstream in this process. For the three-instance test and
 * the bench. Each process can be killed (SIGKILL, as a crash) and started again on its port.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandbox, type SandboxState } from '@crypto-checkout/sandbox';
import { type ServerType, serve } from '@hono/node-server';
// @ts-expect-error: plain JavaScript shared with scripts/test.mjs (no types).
import { ensurePackagesBuilt } from '../../../scripts/ensure.mjs';
import {
  createDatabase,
  freePort,
  type Postgres,
  type Redis,
  startPostgres,
  startRedis,
  waitFor,
} from './servers.ts';
import { sandboxUpstreamEnv } from './support.ts';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const productsFile = fileURLToPath(new URL('./fixtures/products.json', import.meta.url));
export const shopOrigin = 'https://shop.example';

export interface Instance {
  url: string;
  port: number;
  /** What the process printed (for failure messages). */
  output(): string;
  start(): Promise<void>;
  /** kill -9: no shutdown, as a crash. */
  crash(): Promise<void>;
  stop(): Promise<void>;
}

export interface Cluster {
  instances: Instance[];
  sandboxUrl: string;
  sandbox: SandboxState;
  postgres: Postgres;
  redis: Redis;
  /** Upstream order ids the sandbox created (POST /pay-api/v1/orders answered 2xx), distinct. */
  upstreamOrders: Set<string>;
  /** Ramp API calls as they reached the sandbox (performance.now()), and how many it answered 429. */
  ramp: { arrivals: number[]; throttled: number };
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

export interface ClusterOptions {
  size?: number;
  env?: Record<string, string>;
  /** Transit before each ramp request reaches the sandbox (a real upstream is some way off). */
  rampTransitMs?: () => number;
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  ensurePackagesBuilt();
  const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  const databaseUrl = await createDatabase(postgres, 'checkout');
  const ports = await Promise.all(Array.from({ length: options.size ?? 3 }, () => freePort()));
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);

  // The upstream: the sandbox, its webhooks sent to the LAST instance (tests open streams elsewhere).
  let sandbox: ReturnType<typeof createSandbox> | undefined;
  const upstreamOrders = new Set<string>();
  const ramp = { arrivals: [] as number[], throttled: 0 };
  let server: ServerType | undefined;
  const sandboxPort = await new Promise<number>((resolve) => {
    server = serve(
      {
        hostname: '127.0.0.1',
        port: 0,
        fetch: async (request) => {
          const url = new URL(request.url);
          if (url.pathname.startsWith('/ramp/api/v1/merchant/')) {
            const transit = options.rampTransitMs?.();
            if (transit) await new Promise((resolve) => setTimeout(resolve, transit));
            ramp.arrivals.push(performance.now());
            const response = await (sandbox as NonNullable<typeof sandbox>).app.fetch(request);
            if (response.status === 429) ramp.throttled += 1;
            return response;
          }
          const response = await (sandbox as NonNullable<typeof sandbox>).app.fetch(request);
          if (request.method === 'POST' && url.pathname === '/pay-api/v1/orders' && response.ok) {
            const body = (await response.clone().json()) as { data?: { order?: { id?: string } } };
            const id = body.data?.order?.id;
            if (id) upstreamOrders.add(id);
          }
          return response;
        },
      },
      (info) => resolve((info as AddressInfo).port),
    );
  });
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  sandbox = createSandbox({ baseUrl: sandboxUrl, defaultWebhookUrl: `${urls.at(-1)}/api/webhooks/payments` });

  const instances = ports.map((port, index) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-instance-'));
    const url = urls[index] as string;
    let child: ChildProcess | undefined;
    let output = '';
    const env = {
      PATH: process.env['PATH'] ?? '',
      PORT: String(port),
      PUBLIC_URL: url,
      ALLOWED_ORIGINS: shopOrigin,
      ...sandboxUpstreamEnv(sandboxUrl),
      PRODUCTS_FILE: productsFile,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      ACCESS_LOG: 'off',
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...options.env,
    };
    const instance: Instance = {
      url,
      port,
      output: () => output,
      async start() {
        child = spawn(process.execPath, [cli], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        const keep = (chunk: Buffer) => {
          output = (output + chunk.toString()).slice(-8000);
        };
        child.stdout?.on('data', keep);
        child.stderr?.on('data', keep);
        const started = child;
        await waitFor(
          async () => {
            if (started.exitCode !== null) throw new Error(`exited ${started.exitCode}: ${output}`);
            // Its own line first: whatever else answers on the port is not this instance.
            if (!output.includes(`listening on port ${port}`)) throw new Error('not listening yet');
            const response = await fetch(`${url}/healthz`);
            if (!response.ok) throw new Error(`healthz ${response.status}`);
          },
          `instance ${index + 1}`,
        );
      },
      async crash() {
        const running = child;
        if (!running || running.exitCode !== null || running.signalCode !== null) return;
        await new Promise((resolve) => {
          running.once('exit', resolve);
          running.kill('SIGKILL');
        });
      },
      async stop() {
        const running = child;
        if (running && running.exitCode === null && running.signalCode === null) {
          await new Promise((resolve) => {
            running.once('exit', resolve);
            running.kill('SIGTERM');
          });
        }
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
    return instance;
  });
  const close = async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await new Promise<void>((resolve) => {
      (server as ServerType & { closeAllConnections?: () => void }).closeAllConnections?.();
      server?.close(() => resolve());
    });
    await Promise.all([postgres.stop(), redis.stop()]);
  };
  try {
    // One after the other: the first runs the migrations (the others would wait on its lock anyway).
    for (const instance of instances) await instance.start();
  } catch (error) {
    await close();
    throw error;
  }

  return {
    instances,
    sandboxUrl,
    sandbox: sandbox.state,
    postgres,
    redis,
    upstreamOrders,
    ramp,
    async control(method, controlPath, body) {
      const response = await fetch(`${sandboxUrl}/control${controlPath}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`control ${method} ${controlPath} → ${response.status} ${text}`);
      return text ? (JSON.parse(text) as unknown) : undefined;
    },
    close,
  };
}
