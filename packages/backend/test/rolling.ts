/**
 * A deployment as README "Production" describes it, on loopback: three backends (the built CLI, one process each)
 * on one PostgreSQL and one Redis (Debian's, started here with their own data dirs), sharing one standalone
 * sandbox (the `crypto-checkout-sandbox` command, its state on disk) as their upstream, behind Debian's HAProxy
 * run with deploy/haproxy.cfg as shipped (its addresses given through the environment variables it reads), and a
 * merchant's webhook receiver that dedupes by `webhook-id`. Shoppers (`shoppers`) ask for quotes, create orders
 * with Idempotency-Keys, follow each order's status stream the way the element does (reconnecting on the retry
 * hint, or on a cut) and pay; `rollingRestart` stops each instance in turn with SIGTERM and starts it again, then
 * kills one with SIGKILL. For rolling-restart.test.ts (a small rate, asserted) and the bench (1,000 quotes/s,
 * reported).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
// @ts-expect-error: plain JavaScript shared with scripts/test.mjs (no types).
import { ensureDeployTools, ensurePackagesBuilt } from '../../../scripts/ensure.mjs';
import {
  createDatabase,
  freePort,
  type Postgres,
  type Redis,
  startPostgres,
  startRedis,
  waitFor,
} from './servers.ts';
import { sandboxUpstreamEnv, testSecrets } from './support.ts';

const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const backendCli = here('../dist/cli.js');
const sandboxCli = here('../../sandbox/dist/cli.js');
const haproxyFile = here('../../../deploy/haproxy.cfg');
const productsFile = here('./fixtures/products.json');
export const shopOrigin = 'https://shop.example';

/** An order creation that answered an order: 201, or 200, the key's replay (a retry after the instance that made it died before answering). */
export const answeredAnOrder = (attempt: Attempt) => attempt.status === 201 || attempt.status === 200;
const merchantWebhookSecret = 'whsec_Vb7rT2xQ9mLk4NzP8sW3cYd6Hf1Ja5Ue';

/** A process this module started: its output kept (the tail) for failure messages. */
interface Proc {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function launch(command: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

const running = (proc: Proc | undefined): boolean =>
  proc !== undefined && proc.child.exitCode === null && proc.child.signalCode === null;

export interface BackendInstance {
  /** `checkout-1` …, as HAProxy names it. */
  name: string;
  url: string;
  output(): string;
  /** Starts the process and waits for its /healthz. */
  start(): Promise<void>;
  /** SIGTERM, as systemd's stop: resolves with the exit code once it has exited. */
  terminate(): Promise<number | null>;
  /** SIGKILL: no shutdown at all. */
  kill(): Promise<void>;
}

/** One delivery the merchant's receiver got (its signature verified). */
export interface Delivery {
  id: string;
  type: string;
  orderId: string;
  at: number;
}

export interface Deployment {
  /** HAProxy's public address: every shopper request and the upstream's webhooks go through it. */
  front: string;
  sandboxUrl: string;
  instances: BackendInstance[];
  /** HAProxy's statistics page as CSV (`;csv`), on this machine only. */
  statsUrl: string;
  /** Each instance's state as HAProxy's statistics say (UP, DOWN, …), in order. */
  states(): Promise<string[]>;
  /** Waits until HAProxy counts instance `index` as `state`. */
  inRotation(index: number, state: 'UP' | 'DOWN', timeoutMs?: number): Promise<void>;
  haproxyOutput(): string;
  /** The environment every backend runs with (their REDIS_URL, DATABASE_URL, keys…), for a CLI command beside them. */
  backendEnv: Record<string, string>;
  deliveries: Delivery[];
  /** How many orders the upstream (the sandbox) holds for our order id: one, for an order made once. */
  upstreamOrdersFor(orderId: string): Promise<number>;
  /** The shopper pays the upstream order in full (the sandbox's control, as a wallet would). */
  pay(upstreamOrderId: string): Promise<void>;
  close(): Promise<void>;
}

export interface DeploymentOptions {
  /** Extra environment of every backend. */
  env?: Record<string, string>;
  /** HAProxy's log lines (one per request) kept for failure messages; off for the bench's 1,000/s. */
  haproxyLog?: boolean;
}

export async function startDeployment(options: DeploymentOptions = {}): Promise<Deployment> {
  ensurePackagesBuilt();
  const { haproxy: haproxyBin } = ensureDeployTools() as { haproxy: string };
  const cleanups: Array<() => Promise<void> | void> = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  const dir = mkdtempSync(path.join(tmpdir(), 'cc-rolling-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  try {
    const [postgres, redis]: [Postgres, Redis] = await Promise.all([startPostgres(), startRedis()]);
    cleanups.push(() => Promise.all([postgres.stop(), redis.stop()]).then(() => undefined));
    const databaseUrl = await createDatabase(postgres, 'rolling');
    const [frontPort, statsPort, sandboxPort, ...ports] = await Promise.all(
      Array.from({ length: 6 }, () => freePort()),
    );
    const front = `http://127.0.0.1:${frontPort}`;
    const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    const basePath = process.env.PATH ?? '';

    // The merchant's receiver: verifies each delivery and keeps it (the test dedupes by webhook-id).
    const deliveries: Delivery[] = [];
    const verifier = new Webhook(merchantWebhookSecret);
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        try {
          const event = verifier.verify(body, req.headers as Record<string, string>) as {
            type: string;
            data: { orderId?: string };
          };
          deliveries.push({
            id: String(req.headers['webhook-id']),
            type: event.type,
            orderId: event.data.orderId ?? '',
            at: performance.now(),
          });
          res.writeHead(204).end();
        } catch (error) {
          res.writeHead(400).end(String(error));
        }
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          receiver.closeAllConnections();
          receiver.close(() => resolve());
        }),
    );
    const receiverPort = (receiver.address() as { port: number }).port;

    // One sandbox for all three, its state on disk; the upstream's webhooks go through HAProxy.
    const sandbox = launch(
      process.execPath,
      [
        sandboxCli,
        '--port',
        String(sandboxPort),
        '--base-url',
        sandboxUrl,
        '--data-dir',
        path.join(dir, 'sandbox'),
        '--webhook-url',
        `${front}/api/webhooks/payments`,
      ],
      { PATH: basePath },
    );
    cleanups.push(async () => {
      if (running(sandbox)) {
        sandbox.child.kill('SIGTERM');
        await sandbox.exited;
      }
    });
    await waitFor(async () => {
      if (!running(sandbox)) throw new Error(`the sandbox exited: ${sandbox.output()}`);
      if (!(await fetch(`${sandboxUrl}/control/pending`)).ok) throw new Error('not yet');
    }, 'the sandbox');

    const backendEnvs: Record<string, string>[] = [];
    const instances = ports.map((port, index): BackendInstance => {
      const url = `http://127.0.0.1:${port}`;
      const env: Record<string, string> = {
        PATH: basePath,
        PORT: String(port),
        PUBLIC_URL: front,
        ALLOWED_ORIGINS: shopOrigin,
        ...sandboxUpstreamEnv(sandboxUrl),
        PRODUCTS_FILE: productsFile,
        DATA_DIR: path.join(dir, `instance-${index + 1}`),
        DATABASE_URL: databaseUrl,
        REDIS_URL: redis.url,
        ACCESS_LOG: 'off',
        // HAProxy, on this machine, names each shopper (README "Behind a proxy").
        TRUSTED_PROXIES: '127.0.0.1',
        // Every simulated shopper comes from 127.0.0.1: the per-client limit is raised.
        RATE_LIMIT_PER_MINUTE: '1000000',
        // Longer than HAProxy's inter × fall + timeout check (deploy/haproxy.cfg; README "Production").
        SHUTDOWN_DRAIN_MS: '5000',
        MERCHANT_WEBHOOK_URL: `http://127.0.0.1:${receiverPort}/hooks`,
        MERCHANT_WEBHOOK_SECRET: merchantWebhookSecret,
        ...options.env,
      };
      backendEnvs.push(env);
      let proc: Proc | undefined;
      let earlier = '';
      return {
        name: `checkout-${index + 1}`,
        url,
        output: () => `${earlier}${proc?.output() ?? ''}`,
        async start() {
          earlier = `${earlier}${proc?.output() ?? ''}`.slice(-60_000);
          const started = launch(process.execPath, [backendCli], env);
          proc = started;
          await waitFor(
            async () => {
              if (!running(started)) throw new Error(`exited: ${started.output()}`);
              // Its own line first: whatever else answers on the port is not this instance.
              if (!started.output().includes(`listening on port ${port}`))
                throw new Error('not listening yet');
              if (!(await fetch(`${url}/healthz`)).ok) throw new Error('not yet');
            },
            `checkout-${index + 1} started`,
            60_000,
          );
        },
        async terminate() {
          const stopping = proc;
          if (!stopping || !running(stopping)) return stopping?.child.exitCode ?? null;
          stopping.child.kill('SIGTERM');
          return (await stopping.exited).code;
        },
        async kill() {
          const killed = proc;
          if (!killed || !running(killed)) return;
          killed.child.kill('SIGKILL');
          await killed.exited;
        },
      };
    });
    cleanups.push(async () => {
      await Promise.all(instances.map((instance) => instance.terminate()));
    });
    // One after the other: the first runs the migrations.
    for (const instance of instances) await instance.start();

    const haproxy = launch(haproxyBin, ['-db', '-f', haproxyFile], {
      PATH: basePath,
      CHECKOUT_BIND: `127.0.0.1:${frontPort}`,
      CHECKOUT_STATS_BIND: `127.0.0.1:${statsPort}`,
      ...Object.fromEntries(
        ports.map((port, index) => [`CHECKOUT_SERVER_${index + 1}`, `127.0.0.1:${port}`]),
      ),
    });
    if (options.haproxyLog === false) haproxy.child.stdout?.removeAllListeners('data').resume();
    cleanups.push(async () => {
      if (running(haproxy)) {
        haproxy.child.kill('SIGTERM');
        await haproxy.exited;
      }
    });

    const states = async () => {
      const csv = await fetch(`http://127.0.0.1:${statsPort}/;csv`).then(
        (r) => r.text(),
        () => '',
      );
      const rows = csv.split('\n').map((line) => line.split(','));
      return instances.map(
        ({ name }) =>
          rows.find(([proxy, server]) => proxy === 'crypto_checkout' && server === name)?.[17] ?? '?',
      );
    };
    /** Each instance's own word on its readiness (its /readyz's failing checks), for a failure's message. */
    const readiness = async () => {
      const said = await Promise.all(
        instances.map(async (instance) => {
          try {
            const response = await fetch(`${instance.url}/readyz`, { signal: AbortSignal.timeout(5000) });
            const body = (await response.json()) as {
              checks?: Record<
                string,
                { status: string; detail?: string; lastError?: { message: string } | null }
              >;
            };
            const failing = Object.entries(body.checks ?? {})
              .filter(([, check]) => check.status === 'failing')
              .map(([name, check]) => `${name}: ${check.lastError?.message ?? check.detail ?? ''}`);
            return `${instance.name} ${response.status}${failing.length ? ` (${failing.join('; ')})` : ''}`;
          } catch (error) {
            return `${instance.name} no answer (${(error as Error).message})`;
          }
        }),
      );
      return said.join(', ');
    };
    const inRotation = (index: number, state: 'UP' | 'DOWN', timeoutMs = 60_000) =>
      waitFor(
        async () => {
          const now = await states();
          if (now[index] !== state) throw new Error(`HAProxy says ${now.join(', ')}`);
        },
        `HAProxy counts ${instances[index]?.name} ${state}`,
        timeoutMs,
      ).catch(async (error: Error) => {
        throw new Error(`${error.message}; /readyz: ${await readiness()}`);
      });
    // HAProxy 2.6 counts a server up until its first check: wait for checks that passed.
    await waitFor(async () => {
      if (!running(haproxy)) throw new Error(`haproxy exited: ${haproxy.output()}`);
      const now = await states();
      if (now.some((state) => state !== 'UP')) {
        const readyz = await fetch(`${instances[0]?.url}/readyz`);
        throw new Error(
          `${now.join(', ')}; ${instances[0]?.name}'s /readyz: ${readyz.status} ${await readyz.text()}\n${haproxy.output().slice(-2000)}`,
        );
      }
      // /readyz is not served on the public side (deploy/haproxy.cfg): liveness is.
      if (!(await fetch(`${front}/healthz`)).ok) throw new Error('not answering through HAProxy');
    }, 'HAProxy in front of three ready instances');

    const sandboxGet = async (pathAndQuery: string) => {
      const response = await fetch(`${sandboxUrl}${pathAndQuery}`, {
        headers: { 'x-api-key': testSecrets.payApiKey },
      });
      if (!response.ok) throw new Error(`${pathAndQuery} → ${response.status} ${await response.text()}`);
      return response.json() as Promise<unknown>;
    };
    return {
      front,
      sandboxUrl,
      instances,
      statsUrl: `http://127.0.0.1:${statsPort}/;csv`,
      states,
      inRotation,
      haproxyOutput: haproxy.output,
      backendEnv: backendEnvs[0] as Record<string, string>,
      deliveries,
      async upstreamOrdersFor(orderId) {
        const answer = (await sandboxGet(
          `/pay-api/v1/merchants/orders?searchId=${encodeURIComponent(orderId)}&limit=100`,
        )) as { data: { orders: Array<{ externalId?: string }> } };
        return answer.data.orders.filter((order) => order.externalId === orderId).length;
      },
      async pay(upstreamOrderId) {
        const response = await fetch(`${sandboxUrl}/control/orders/${upstreamOrderId}/pay`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ kind: 'exact' }),
        });
        if (!response.ok)
          throw new Error(`pay ${upstreamOrderId} → ${response.status} ${await response.text()}`);
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** What happened to the instances, and when (performance.now()). */
export interface Phase {
  kind: 'SIGTERM' | 'SIGKILL';
  instance: string;
  /** When the signal was sent. */
  from: number;
  /** When HAProxy counted the instance up again after its restart. */
  to: number;
  /** The exit code of a graceful stop (0 expected). */
  exitCode?: number | null;
}

/**
 * Each instance in turn stopped with SIGTERM and started again (the next only once HAProxy counts it back up,
 * as README "Restart" says), then `killIndex` killed with SIGKILL and started again.
 */
export async function rollingRestart(
  deployment: Deployment,
  options: { killIndex?: number; log?: (line: string) => void } = {},
): Promise<Phase[]> {
  const phases: Phase[] = [];
  const log = options.log ?? (() => undefined);
  const { instances } = deployment;
  for (const [index, instance] of instances.entries()) {
    const from = performance.now();
    log(`SIGTERM to ${instance.name}`);
    const exitCode = await instance.terminate();
    log(`${instance.name} exited ${exitCode}; starting it again`);
    await instance.start();
    await deployment.inRotation(index, 'UP');
    phases.push({ kind: 'SIGTERM', instance: instance.name, from, to: performance.now(), exitCode });
  }
  const index = options.killIndex ?? 1;
  const victim = instances[index] as BackendInstance;
  const from = performance.now();
  log(`SIGKILL to ${victim.name}`);
  await victim.kill();
  await victim.start();
  await deployment.inRotation(index, 'UP');
  phases.push({ kind: 'SIGKILL', instance: victim.name, from, to: performance.now() });
  return phases;
}

/** One shopper request through HAProxy: when it was due, sent and done (performance.now()), and its answer. */
export interface Attempt {
  dueAt: number;
  doneAt: number;
  /** 0: no answer (the connection failed or timed out). */
  status: number;
  body: string;
}

export interface OrderTrail {
  key: string;
  attempt: Attempt;
  orderId?: string;
  upstreamOrderId?: string;
  statusToken?: string;
  /** The statuses its stream told, in order, over every connection. */
  statuses: string[];
  /** Each connection of its stream: when it was made and ended, its status, and how it ended. */
  connections: Array<{
    at: number;
    endedAt: number;
    status: number;
    /** `final`: after a final status; `retry`: after the server's retry hint; `cut`: anything else. */
    ending: 'final' | 'retry' | 'cut' | 'refused';
    error?: string;
  }>;
  paidAt?: number;
}

export interface ShopperOptions {
  front: string;
  /** Quote requests per second (Poisson arrivals) and their body. */
  quoteRate: number;
  quoteBody: () => string;
  /** Orders created per second (evenly spaced). */
  orderRate: number;
  /** How long after its creation each order is paid (its stream stays open meanwhile). */
  payAfterMs: () => number;
  pay: (upstreamOrderId: string) => Promise<void>;
  /** Most sockets for quotes and orders (status streams have one each). */
  connections: number;
  timeoutMs?: number;
  /** After `stop()`, how long each status stream may still take to reach its final status (default 120 s). */
  finalWithinMs?: number;
}

const finalStatuses = new Set(['paid', 'overpaid', 'underpaid', 'expired', 'failed']);

/** Shoppers through HAProxy until `stop()`: quotes, orders, a status stream per order, each order paid. */
export function shoppers(options: ShopperOptions) {
  // Idle sockets closed after 5 s, before HAProxy closes them (`timeout http-keep-alive 10s`), as a browser keeps
  // them: a request sent on a socket just as HAProxy closed it failed as "socket hang up" with no restart near.
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections, timeout: 5000 });
  const front = new URL(options.front);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const quotes: Attempt[] = [];
  const orders: OrderTrail[] = [];
  const payments: Array<{ orderId: string; error: string }> = [];
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;
  /** After stop(), how long a stream may still take to reach its final status. */
  let giveUpAt = Number.POSITIVE_INFINITY;
  const track = <T>(work: Promise<T>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
    return work;
  };

  const send = (
    dueAt: number,
    method: string,
    pathName: string,
    headers: Record<string, string>,
    body: string,
  ): Promise<Attempt> =>
    new Promise((resolve) => {
      const done = (status: number, text: string) =>
        resolve({ dueAt, doneAt: performance.now(), status, body: text });
      const req = request(
        {
          agent,
          host: front.hostname,
          port: front.port,
          method,
          path: pathName,
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
          timeout: timeoutMs,
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => done(res.statusCode ?? 0, text));
          res.on('error', (error) => done(0, String(error)));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', (error) => done(0, String(error)));
      req.end(body);
    });

  /** The status stream as the element's EventSource follows it: reconnects after `retry:` (or 3 s), to the end. */
  async function follow(trail: OrderTrail) {
    let retryMs = 3000;
    let lastEventId: string | undefined;
    while (!trail.statuses.some((status) => finalStatuses.has(status))) {
      const at = performance.now();
      const connection: OrderTrail['connections'][number] = { at, endedAt: at, status: 0, ending: 'cut' };
      trail.connections.push(connection);
      try {
        const response = await fetch(
          `${options.front}/api/orders/${trail.orderId}/events?token=${trail.statusToken}`,
          {
            headers: lastEventId ? { 'last-event-id': lastEventId } : {},
            signal: AbortSignal.timeout(300_000),
          },
        );
        connection.status = response.status;
        if (response.status !== 200 || !response.body) {
          connection.ending = 'refused';
          connection.error = await response.text();
        } else {
          let buffer = '';
          let sawRetry = false;
          const decoder = new TextDecoder();
          for await (const chunk of response.body) {
            buffer += decoder.decode(chunk as Uint8Array, { stream: true });
            for (let cut = buffer.indexOf('\n\n'); cut !== -1; cut = buffer.indexOf('\n\n')) {
              const frame = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              const field = (name: string) => new RegExp(`^${name}: ?(.*)$`, 'm').exec(frame)?.[1];
              const retry = field('retry');
              if (retry !== undefined) {
                retryMs = Number(retry);
                sawRetry = true;
              }
              lastEventId = field('id') ?? lastEventId;
              const data = field('data');
              if (field('event') === 'status' && data)
                trail.statuses.push((JSON.parse(data) as { status: string }).status);
            }
          }
          connection.ending = trail.statuses.some((status) => finalStatuses.has(status))
            ? 'final'
            : sawRetry
              ? 'retry'
              : 'cut';
        }
      } catch (error) {
        connection.ending = connection.status === 0 ? 'refused' : 'cut';
        connection.error = String(error);
      }
      connection.endedAt = performance.now();
      if (trail.statuses.some((status) => finalStatuses.has(status))) return;
      if (performance.now() > giveUpAt) return;
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  }

  async function order(dueAt: number) {
    const key = `rolling-${randomUUID()}`;
    const attempt = await send(
      dueAt,
      'POST',
      '/api/orders',
      { 'content-type': 'application/json', origin: shopOrigin, 'idempotency-key': key },
      JSON.stringify({ product: 'hoodie' }),
    );
    const trail: OrderTrail = { key, attempt, statuses: [], connections: [] };
    orders.push(trail);
    if (!answeredAnOrder(attempt)) return;
    const created = JSON.parse(attempt.body) as { orderId: string; link: string; statusToken: string };
    trail.orderId = created.orderId;
    trail.statusToken = created.statusToken;
    trail.upstreamOrderId = new URL(created.link).pathname.split('/').pop() ?? '';
    const following = follow(trail);
    await new Promise((resolve) => setTimeout(resolve, options.payAfterMs()));
    try {
      await options.pay(trail.upstreamOrderId);
      trail.paidAt = performance.now();
    } catch (error) {
      payments.push({ orderId: created.orderId, error: String(error) });
    }
    await following;
  }

  // Quotes: Poisson arrivals; orders: evenly spaced. Each is sent when due, whatever the others are doing.
  const startedAt = performance.now();
  const loop = async (nextGap: () => number, fire: (dueAt: number) => Promise<unknown>) => {
    let due = performance.now();
    while (!stopped) {
      due += nextGap();
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (stopped) break;
      void track(fire(due));
    }
  };
  const quoting = options.quoteRate
    ? loop(
        () => (-Math.log(1 - Math.random()) * 1000) / options.quoteRate,
        async (dueAt) => {
          quotes.push(
            await send(
              dueAt,
              'POST',
              '/api/quotes/buy',
              { 'content-type': 'application/json' },
              options.quoteBody(),
            ),
          );
        },
      )
    : Promise.resolve();
  const ordering = options.orderRate ? loop(() => 1000 / options.orderRate, order) : Promise.resolve();

  return {
    startedAt,
    quotes,
    orders,
    payments,
    /** Stops sending; waits for every request and stream (each stream to its final status) to finish. */
    async stop() {
      stopped = true;
      giveUpAt = performance.now() + (options.finalWithinMs ?? 120_000);
      await Promise.all([quoting, ordering]);
      while (inFlight.size) await Promise.all([...inFlight]);
      agent.destroy();
    },
  };
}

/** Whether `at` falls in a phase's window. */
export const during = (phases: Phase[], at: number) =>
  phases.find((phase) => at >= phase.from && at <= phase.to);

export function quantile(values: readonly number[], q: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
}
