/**
 * A per-client (per IP) rate limit on the public routes: `hono-rate-limiter`, answering 429 RATE_LIMITED. With
 * Redis (REDIS_URL) the counts live there (the library's RedisStore), so a client spreading its requests over
 * the instances gets the same limit in all.
 */
import type { HttpBindings } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { MemoryStore, RedisStore, rateLimiter, type Store } from 'hono-rate-limiter';
import type { Redis } from 'ioredis';
import type { AppEnv } from '../deps.ts';
import { AppError } from '../errors.ts';
import { isRedisDown } from '../shared/redis.ts';

type NodeBindings = HttpBindings;

/**
 * The client's address as the socket saw it. `X-Forwarded-For` is not trusted: anyone can send it, so a client
 * could pick a fresh identity per request. Behind a proxy, put the limit in the proxy or change this deliberately.
 */
export function clientAddress(c: Context): string {
  // Served by @hono/node-server with its bindings (`serve({ fetch: app.fetch })`): the socket's address. Without
  // them (`app.request()` in a test, a fetch handler that drops the bindings) one shared bucket; checked, not
  // caught: a thrown and caught TypeError per request is a visible share of the catalog route's CPU
  // (`npm run bench -- profile`).
  const env = c.env as { server?: NodeBindings; incoming?: NodeBindings['incoming'] } | undefined;
  if (!(env?.server ?? env)?.incoming?.socket) return 'unknown';
  return getConnInfo(c).remote.address ?? 'unknown';
}

/**
 * The Redis store, falling back to this process's counts while Redis is unreachable when `fallback` is set, else
 * refusing with 503 (the same choice as the upstream budget's).
 */
function redisCounts(redis: Redis, fallback: boolean): Store<AppEnv> {
  const shared = new RedisStore<AppEnv>({
    client: {
      scriptLoad: (script) => redis.script('LOAD', script) as Promise<string>,
      evalsha: <TArgs extends unknown[], TData = unknown>(sha: string, keys: string[], args: TArgs) =>
        redis.evalsha(sha, keys.length, ...keys, ...(args as Array<string | number>)) as Promise<TData>,
      decr: (key) => redis.decr(key),
      del: (key) => redis.del(key),
    },
    prefix: 'cc:client-limit:',
  });
  const local = new MemoryStore<AppEnv>();
  const either =
    <A extends unknown[], R>(pick: (store: Store<AppEnv>) => (...args: A) => R) =>
    async (...args: A) => {
      try {
        return await pick(shared).apply(shared, args);
      } catch (error) {
        if (!isRedisDown(error)) throw error;
        if (!fallback) {
          throw new AppError(
            'SERVICE_UNAVAILABLE',
            'The shared rate limit is unavailable; try again shortly.',
            {
              retryAfter: 1,
            },
          );
        }
        return pick(local).apply(local, args);
      }
    };
  return {
    init: (options) => {
      shared.init?.(options);
      local.init?.(options);
    },
    get: either((store) => store.get ?? (async () => undefined)),
    increment: either((store) => store.increment),
    decrement: either((store) => store.decrement),
    resetKey: either((store) => store.resetKey),
    prefix: 'cc:client-limit:',
  } as Store<AppEnv>;
}

export function clientRateLimit(
  perMinute: number,
  shared?: { redis: Redis; fallback: boolean },
): MiddlewareHandler<AppEnv> {
  return rateLimiter<AppEnv>({
    ...(shared ? { store: redisCounts(shared.redis, shared.fallback) } : {}),
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-7',
    keyGenerator: clientAddress,
    handler: (c) => {
      const retryAfter = Number(c.res.headers.get('Retry-After')) || 60;
      throw new AppError('RATE_LIMITED', 'Too many requests from this client; slow down and try again.', {
        retryAfter,
      });
    },
  });
}
