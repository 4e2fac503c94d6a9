/**
 * The backend mounted in an app the merchant already has (`createCheckout`): configured like the CLI, its fetch
 * served under PUBLIC_URL's path, its data dir locked while it runs.
 */
import type { Hono } from 'hono';
import { type Config, checkConfig, loadConfig } from '../config.ts';
import type { AppEnv } from '../deps.ts';
import type { OnEvent } from '../events/fulfilment-events.ts';
import { flushLogs, logger } from '../logger.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { createRuntime, type Runtime, type RuntimeOptions } from './runtime.ts';
import { sandboxNotice } from './sandbox-mount.ts';

/**
 * The app's fetch for a host that hands it whole URLs (a Next.js catch-all route, Bun, Deno): a request under
 * PUBLIC_URL's path (`/checkout/api/orders`) is served as `/api/orders`. One already below it (Express strips
 * its mount path) is served as it comes.
 */
function underPublicPath(app: Hono<AppEnv>, base: string): Checkout['fetch'] {
  const prefix = base.replace(/\/$/, '');
  if (!prefix) return (request, env) => app.fetch(request, env);
  return (request, env) => {
    const url = new URL(request.url);
    if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return app.fetch(request, env);
    url.pathname = url.pathname.slice(prefix.length) || '/';
    const { method, headers, body, signal } = request;
    return app.fetch(new Request(url, { method, headers, body, signal, duplex: 'half' } as RequestInit), env);
  };
}

/** Who sent a request, as a fetch handler's host knows it (`checkout.fetch(request, { clientAddress })`). */
export interface CheckoutFetchClient {
  /** The connection's peer: an IPv4 or IPv6 address (anything else counts as none). */
  clientAddress?: string | undefined;
}

/** A mounted checkout: the Hono app, its web-standard `fetch`, and `close` for a graceful shutdown. */
export interface Checkout {
  /** For a Hono app: `app.route('/checkout', checkout.app)`. */
  app: Hono<AppEnv>;
  /**
   * For anything that takes a fetch handler (Next.js route handlers, Bun, Deno, `@hono/node-server`). The second
   * argument tells who sent the request: `{ clientAddress }` (Bun's `server.requestIP(request)?.address`, Deno's
   * `info.remoteAddr.hostname`), or `@hono/node-server`'s bindings as they come. Without it every request counts
   * as one client (one rate limit, one wrong-credential count) and live mode warns once.
   */
  fetch: (request: Request, client?: CheckoutFetchClient | object) => Response | Promise<Response>;
  config: Config;
  /** Marks the instance as shutting down: its /readyz answers 503 from now on (first step of a graceful stop). */
  markDraining(): void;
  close(): Promise<void>;
}

/** What `createCheckout` takes beside the config. */
export interface CheckoutOptions extends RuntimeOptions {}

/**
 * A config with `onEvent` inside `events`, as `createCheckout` first took it. Still accepted (moved to the
 * options, with a warning once at start), so an app written for it keeps hearing its events.
 */
export type LegacyCheckoutConfig = Config & {
  events: Config['events'] & {
    /** @deprecated Give it beside the config: `createCheckout(config, { onEvent })`. */
    onEvent?: OnEvent | undefined;
  };
};

/**
 * The backend to mount in an app the merchant already has, configured like the CLI (`loadConfig(process.env)`
 * by default). Set PUBLIC_URL to where it is mounted (`https://shop.example/checkout`): return pages, webhook
 * URLs and the sandbox are addressed from it. `options.onEvent` hears every fulfilment event in process.
 */
export async function createCheckout(
  config: Config | LegacyCheckoutConfig = loadConfig(),
  options: CheckoutOptions = {},
): Promise<Checkout> {
  checkConfig(config);
  const { onEvent: legacyOnEvent, ...events } = (config as LegacyCheckoutConfig).events;
  if (legacyOnEvent && options.onEvent) {
    throw new TypeError(
      'createCheckout: onEvent is given twice; keep createCheckout(config, { onEvent }) and drop config.events.onEvent.',
    );
  }
  if (legacyOnEvent) {
    logger.warn(
      '[checkout] config.events.onEvent is deprecated: pass it as createCheckout(config, { onEvent }) (it still works).',
    );
  }
  const onEvent = options.onEvent ?? legacyOnEvent;
  // SQLite is one process per DATA_DIR, mounted or not: a second process on it is refused (DataDirInUse), as the
  // command refuses it; the lock is released by close().
  const lock = config.databaseUrl ? undefined : await lockDataDir(config.dataDir);
  let runtime: Runtime;
  try {
    runtime = await createRuntime({ ...config, events }, { ...options, onEvent });
  } catch (error) {
    lock?.release();
    throw error;
  }
  // Said once, as the command's banner does: a mounted checkout on the sandbox must not pass for a live one.
  if (config.mode === 'sandbox') logger.warn(sandboxNotice(config.publicUrl));
  // Out now, beside the app's own start lines, rather than with the next batch.
  flushLogs();
  return {
    app: runtime.app,
    fetch: underPublicPath(runtime.app, new URL(config.publicUrl).pathname),
    config: runtime.deps.config,
    markDraining: runtime.markDraining,
    async close() {
      try {
        await runtime.close();
      } finally {
        lock?.release();
      }
    },
  };
}
