/**
 * A per-client rate limit on the public routes (the client as middleware/client-address.ts tells it: the peer, or
 * the client a trusted proxy names): `hono-rate-limiter`, answering 429 RATE_LIMITED. With
 * Redis (REDIS_URL) the counts live there (the library's RedisStore), so a client spreading its requests over
 * the instances gets the same limit in all.
 */
import type { MiddlewareHandler } from 'hono';
import { MemoryStore, RedisStore, rateLimiter, type Store } from 'hono-rate-limiter';
import type { Redis } from 'ioredis';
import type { AppEnv } from '../deps.ts';
import { AppError } from '../errors.ts';
import { isRedisDown } from '../shared/redis.ts';
import { clientAddress } from './client-address.ts';

/**
 * The Redis store, falling back to this process's counts while Redis is unreachable when `fallback` is set, else
 * refusing with 503 (the same choice as the upstream budget's).
 */
export function redisCounts(redis: Redis, fallback: boolean, prefix = 'cc:client-limit:'): Store<AppEnv> {
  const shared = new RedisStore<AppEnv>({
    client: {
      scriptLoad: (script) => redis.script('LOAD', script) as Promise<string>,
      evalsha: <TArgs extends unknown[], TData = unknown>(sha: string, keys: string[], args: TArgs) =>
        redis.evalsha(sha, keys.length, ...keys, ...(args as Array<string | number>)) as Promise<TData>,
      decr: (key) => redis.decr(key),
      del: (key) => redis.del(key),
    },
    prefix,
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
    // Lifting a count (admin/lockouts.ts) clears what was counted here while Redis was down too.
    resetKey: async (key: string) => {
      local.resetKey(key);
      await either((store) => store.resetKey)(key);
    },
    resetAll: async () => {
      local.resetAll();
      await deleteMatching(redis, `${prefix}*`);
    },
    prefix,
  } as Store<AppEnv>;
}

/** Deletes every Redis key matching `pattern` (SCAN, not KEYS: Redis keeps serving meanwhile); how many. */
export async function deleteMatching(redis: Redis, pattern: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    if (keys.length) deleted += await redis.del(...keys);
  } while (cursor !== '0');
  return deleted;
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
