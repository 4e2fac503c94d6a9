/**
 * The wrong admin credentials counted per client address (admin/access.ts), and lifting them: one address, or
 * all. In Redis with REDIS_URL (every instance's, so `crypto-checkout-backend unlock` can clear them there too),
 * else in this process (cleared by `DELETE /api/admin/lockouts/…`, or a restart).
 */
import { isIP } from 'node:net';
import { MemoryStore, type Store } from 'hono-rate-limiter';
import type { Redis } from 'ioredis';
import type { AppDeps, AppEnv } from '../deps.ts';
import { deleteMatching, redisCounts } from '../middleware/rate-limit.ts';
import { plainAddress } from '../trusted-proxies.ts';

/** The Redis prefix of the counts (the key is the prefix and the client address). */
export const lockoutPrefix = 'cc:admin-failures:';

export interface Lockouts {
  /** The counts, for the limiter in admin/access.ts. */
  store: Store<AppEnv>;
  lift(address: string): Promise<void>;
  liftAll(): Promise<void>;
}

export function createLockouts(deps: Pick<AppDeps, 'shared'>): Lockouts {
  const store = deps.shared
    ? redisCounts(deps.shared.redis, deps.shared.fallbackInstances !== undefined, lockoutPrefix)
    : new MemoryStore<AppEnv>();
  return {
    store,
    lift: async (address) => {
      await store.resetKey(address);
    },
    liftAll: async () => {
      await store.resetAll?.();
    },
  };
}

/**
 * A client address as the counts key it: IPv4 as dotted, IPv6 as given (Node's spelling), `unknown` as is; or
 * undefined when it is none of them.
 */
export function lockoutKey(address: string): string | undefined {
  const plain = plainAddress(address.trim());
  return isIP(plain) || plain === 'unknown' ? plain : undefined;
}

/** `crypto-checkout-backend unlock`: lifts one address's count (or every one) straight in Redis; how many went. */
export async function liftInRedis(redis: Redis, address: string | 'all'): Promise<number> {
  if (address === 'all') return deleteMatching(redis, `${lockoutPrefix}*`);
  return redis.del(`${lockoutPrefix}${address}`);
}
