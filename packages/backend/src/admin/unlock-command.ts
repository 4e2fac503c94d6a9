/**
 * `crypto-checkout-backend unlock <address> | --all`: lifts the wrong-admin-credential count of a client address
 * (or of every one) where the serving instances keep it. With REDIS_URL that is Redis, shared by every instance,
 * cleared here straight away; without it each serving process keeps its own counts, which only it (its
 * `DELETE /api/admin/lockouts/…` route, audited) or a restart can clear: the command says so.
 */
import type { Config } from '../config.ts';
import { logger } from '../logger.ts';
import { describeRedis } from '../shared/redis.ts';
import { liftInRedis, lockoutKey } from './lockouts.ts';

/** Runs the command; `say` writes the command's own answer. Resolves with the exit code. */
export async function runUnlock(
  config: Config,
  target: { address?: string | undefined; all: boolean },
  say: (line: string) => void,
): Promise<number> {
  const key = target.all ? 'all' : target.address === undefined ? undefined : lockoutKey(target.address);
  if (!key) {
    say(
      target.address === undefined
        ? 'unlock needs a client address (as the audit log and the warning lines name it) or --all.'
        : `"${target.address}" is not an IPv4 or IPv6 address (nor unknown): give one as the audit log and the warning lines name it, or --all.`,
    );
    return 2;
  }
  const path = `/api/admin/lockouts/${encodeURIComponent(key)}`;
  if (!config.redisUrl) {
    say(
      'REDIS_URL is not set, so each serving process keeps its own counts of wrong admin credentials, which this ' +
        `command cannot reach. Lift them there, with a write credential (a right credential is never refused): ` +
        `curl -X DELETE -H "Authorization: Bearer $TOKEN" ${config.publicUrl}${path}  (or restart the process).`,
    );
    return 1;
  }
  const { Redis: Client } = await import('ioredis');
  const redis = new Client(config.redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    commandTimeout: 5000,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const cleared = await liftInRedis(redis, key);
    logger.info(
      `[admin] unlock: lifted the wrong-credential count of ${key === 'all' ? 'every address' : key} in ${describeRedis(config.redisUrl)} (${cleared} count(s) cleared), for every instance`,
    );
    return 0;
  } catch (error) {
    say(`Cannot lift it: ${describeRedis(config.redisUrl)} cannot be reached (${(error as Error).message}).`);
    return 1;
  } finally {
    redis.disconnect();
  }
}
