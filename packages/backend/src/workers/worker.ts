/**
 * The backend on Cloudflare Workers (`@crypto-checkout/backend/workers`, bundled by `scripts/build-worker.mjs`):
 * the same app, API, widget bundle and return page as the command, served from one Durable Object.
 *
 * Why one object: everything that must stay exactly-once (orders and their status history, idempotency claims,
 * webhook dedupe, the outbox written in the same transaction as the status change, the audit log) lives in its
 * SQLite (`durable-store.ts`), since D1 has no interactive transactions; the upstream call budget, the quote
 * engine and every order's status stream are in the same object, so the budget is one budget and a status change
 * reaches the streams that watch it. The Worker in front only forwards.
 *
 * Configuration: the Worker's vars and secrets are the variables of `--help`, checked by the same `loadConfig`
 * with the same messages (a bad one answers every request 500 INTERNAL with the command's message naming each problem, and logs it). No upstream
 * keys: the offline sandbox is served at `/sandbox`, as `npm start` does. DATA_DIR, DATABASE_URL and REDIS_URL
 * do not apply (the object is the storage and the one instance).
 *
 * Deliveries: the delivery worker runs while the object is awake; an alarm set while an event is pending wakes the
 * object again to retry it (Cloudflare evicts an idle object), and prunes expired records.
 */
import type { Hono } from 'hono';
import { createApp } from '../app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import type { AppEnv } from '../deps.ts';
import type { ErrorCode } from '../errors.ts';
import { configureLogging, logger } from '../logger.ts';
import { createDeps } from '../process/app-deps.ts';
import { startBackground } from '../process/background.ts';
import { loadSandbox, sandboxNotice, withSandbox } from '../process/sandbox-mount.ts';
import type { DurableObjectSqlStorage } from './durable-sql.ts';
import { createDurableStore } from './durable-store.ts';

/** What Workers hand a Durable Object and the Worker (structural: no Workers types needed). */
interface DurableObjectState {
  storage: DurableObjectSqlStorage & {
    getAlarm(): Promise<number | null>;
    setAlarm(at: number): Promise<void>;
  };
  blockConcurrencyWhile<T>(work: () => Promise<T>): Promise<T>;
}
interface DurableObjectNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(request: Request): Promise<Response> };
}
export interface WorkerEnv {
  /** The Durable Object binding (wrangler.jsonc `durable_objects.bindings`). */
  CHECKOUT: DurableObjectNamespace;
  [variable: string]: unknown;
}

/** The object every request goes to: one per deployment. */
const objectName = 'checkout';
/** How soon an alarm wakes the object again while an event waits for delivery. */
const retryAlarmMs = 60_000;
/** Expired idempotency and dedupe records go at most this often. */
const pruneEveryMs = 3_600_000;

/** The Worker's vars and secrets as the environment `loadConfig` reads (bindings are not strings, left out). */
function variablesOf(env: WorkerEnv): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (typeof value === 'string') vars[name] = value;
  return vars;
}

/** Lines as JSON through `console.log`, which Workers Logs (and `wrangler tail`) read. */
const consoleLines = {
  write(line: string) {
    // biome-ignore lint/suspicious/noConsole: the only way out of a Worker; every line is still built by logger.ts.
    console.log(line.trimEnd());
    return true;
  },
};

interface Served {
  fetch(request: Request): Promise<Response>;
  /** One delivery pass now; whether an event still waits (the alarm is set again then). */
  deliverDue(): Promise<boolean>;
  prune(): Promise<number>;
}

/**
 * The widget bundle, flags and catalog are sent already compressed (precompressed.ts). Workers compress a body
 * by its Content-Encoding unless told the bytes already are (`encodeBody: 'manual'`): without it the shopper's
 * browser gets brotli of brotli.
 */
function precompressedAsIs(response: Response): Response {
  if (!response.headers.has('content-encoding')) return response;
  const { status, statusText, headers, body } = response;
  return new Response(body, { status, statusText, headers, encodeBody: 'manual' } as ResponseInit);
}

/** The configuration's problems, as the command prints them. */
interface Refused {
  refused: string;
}

const configRefused = (message: string) =>
  Response.json(
    { error: { code: 'INTERNAL' satisfies ErrorCode, message, requestId: crypto.randomUUID() } },
    { status: 500 },
  );

export class CheckoutObject {
  #served: Promise<Served | Refused> | undefined;
  #lastPrune = 0;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: WorkerEnv,
  ) {}

  async fetch(request: Request): Promise<Response> {
    const served = await this.#start(new URL(request.url).origin);
    if ('refused' in served) return configRefused(served.refused);
    const response = await served.fetch(request);
    // A status change may have put an event in the outbox: make sure something wakes the object to deliver it.
    if (request.method !== 'GET' && (await this.ctx.storage.getAlarm()) === null)
      await this.ctx.storage.setAlarm(Date.now() + retryAlarmMs);
    return response;
  }

  async alarm(): Promise<void> {
    const served = await this.#start(String(this.env['PUBLIC_URL'] ?? 'http://localhost'));
    if ('refused' in served) return;
    const waiting = await served.deliverDue();
    if (Date.now() - this.#lastPrune >= pruneEveryMs) {
      this.#lastPrune = Date.now();
      await served.prune().catch((error: Error) => logger.warn(`[store] pruning failed: ${error.message}`));
    }
    if (waiting) await this.ctx.storage.setAlarm(Date.now() + retryAlarmMs);
  }

  /**
   * Built once per object. A refused configuration is kept (a variable stays bad until the Worker is deployed
   * again) and answered, not thrown: a throw out of blockConcurrencyWhile resets the object.
   */
  #start(origin: string): Promise<Served | Refused> {
    this.#served ??= this.ctx.blockConcurrencyWhile(() =>
      this.#build(origin).catch((error: unknown) => {
        if (!(error instanceof ConfigError)) throw error;
        logger.error(error.message);
        return { refused: error.message };
      }),
    );
    return this.#served;
  }

  async #build(origin: string): Promise<Served> {
    const vars = variablesOf(this.env);
    configureLogging({
      level: vars['LOG_LEVEL'],
      format: 'json',
      instance: vars['INSTANCE_NAME'] || 'workers',
      destination: consoleLines as never,
    });
    // Without PUBLIC_URL (the sandbox on workers.dev or in Miniflare) the address the first request came to.
    const config = loadConfig({ ...vars, PUBLIC_URL: vars['PUBLIC_URL'] ?? origin });
    const ignored = ['DATA_DIR', 'DATABASE_URL', 'REDIS_URL'].filter((name) => vars[name] !== undefined);
    if (ignored.length)
      logger.warn(
        `[workers] ${ignored.join(', ')} ${ignored.length > 1 ? 'do' : 'does'} not apply on Workers: the Durable Object is the storage and the one instance`,
      );
    const store = await createDurableStore(this.ctx.storage, { retentionMs: config.retentionMs });
    // A Worker cannot fetch its own hostname: calls to our own URLs (the sandbox as upstream, its webhooks back
    // to us, a merchant hook on the same Worker) are served by the app in process.
    let app: Hono<AppEnv> | undefined;
    const own = new URL(config.publicUrl).origin;
    const fetchOwn: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      return app && new URL(request.url).origin === own
        ? Promise.resolve(app.fetch(request))
        : fetch(request);
    };
    const deps = createDeps(config, { store, rampFetch: fetchOwn, paymentsFetch: fetchOwn });
    const backend = createApp(deps);
    const worker = startBackground(deps, { fetch: fetchOwn });
    app = backend;
    if (config.mode === 'sandbox') {
      app = await withSandbox(backend, await loadSandbox(), config.publicUrl, fetchOwn);
      logger.warn(sandboxNotice(config.publicUrl));
    }
    const served = app;
    return {
      fetch: async (request) => {
        const clientAddress = request.headers.get('cf-connecting-ip') ?? undefined;
        return precompressedAsIs(await served.fetch(request, { clientAddress }));
      },
      deliverDue: async () => {
        await worker.tick();
        return (await store.find('outbox', { pending: 1 }, { limit: 1 })).length > 0;
      },
      prune: () => store.prune(),
    };
  }
}

export default {
  fetch(request: Request, env: WorkerEnv): Promise<Response> {
    return env.CHECKOUT.get(env.CHECKOUT.idFromName(objectName)).fetch(request);
  },
};
