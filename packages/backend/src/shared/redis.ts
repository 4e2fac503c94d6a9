/**
 * What several instances share through Redis when REDIS_URL is set: the connection (one for commands, one
 * for subscriptions), the order-status fan-out channel, the cross-instance response cache, and which instances
 * run (each keeps `cc:instance:<id>` alive while it runs). Without REDIS_URL none of this exists and everything
 * stays in the process.
 *
 * Commands fail at once while Redis is unreachable (no offline queue), so a request gets its answer (503, or
 * the configured fallback) instead of hanging; the connection keeps retrying in the background.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { systemClock } from '../clock.ts';
import { createOutageLog } from '../outage-log.ts';

/** Thrown when Redis is needed and unreachable, with no fallback configured: 503 SERVICE_UNAVAILABLE. */
export class SharedStateUnavailable extends Error {
  constructor(options?: { cause?: unknown }) {
    super('Redis (REDIS_URL) cannot be reached', options);
    this.name = 'SharedStateUnavailable';
  }
}

/**
 * What went wrong with Redis, in a few words (`connection refused`), from what the client said: the socket's error
 * code, Redis's own refusal, or the client's state (`Stream isn't writeable…` only says there is no connection now).
 */
export function redisReason(error: unknown): string {
  const { code, message = '' } = (error ?? {}) as { code?: string; message?: string };
  const byCode: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'the connection was reset',
    ETIMEDOUT: 'no answer in time',
    ENOTFOUND: 'its host name does not resolve',
    EAI_AGAIN: 'its host name does not resolve',
    EHOSTUNREACH: 'no route to its host',
    ENETUNREACH: 'no route to its host',
  };
  if (code && byCode[code]) return byCode[code];
  if (/WRONGPASS|NOAUTH|invalid password|invalid username-password/i.test(message))
    return 'it refused the credentials';
  if (/Command timed out|connect ETIMEDOUT/i.test(message)) return 'no answer in time';
  if (/Stream isn't writeable|Connection is closed|enableOfflineQueue|max retries/i.test(message))
    return 'not connected';
  // Anything else is Redis's or the client's own first line (never the URL: neither repeats it).
  return message.split('\n')[0]?.slice(0, 200) || 'unknown error';
}

export interface SharedState {
  redis: Redis;
  /** This process's id in messages, so it ignores its own. */
  instanceId: string;
  fanout: OrderFanout;
  cache: SharedCache;
  /** Instances to divide the upstream budget by when Redis is down; undefined = 503. */
  fallbackInstances: number | undefined;
  /** A failed command in one sentence naming Redis's host and port and what happened, never its password. */
  problem(error: unknown): string;
  /** Whether the instance `instanceId` still runs: false once it has not said so for INSTANCE_ALIVE_MS. */
  alive(instanceId: string): Promise<boolean>;
  close(): Promise<void>;
}

/** How long an instance counts as running after it last said so; it says so every third of it. */
export const INSTANCE_ALIVE_MS = 10_000;
const instanceKey = (instanceId: string) => `cc:instance:${instanceId}`;

/** Redis's address without credentials, for messages. */
export function describeRedis(url: string): string {
  try {
    const parsed = new URL(url);
    return `Redis at ${parsed.hostname}:${parsed.port || 6379}`;
  } catch {
    return 'Redis (REDIS_URL is not a URL)';
  }
}

const clientOptions = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  connectTimeout: 2000,
  commandTimeout: 2000,
  // Reconnect for ever, at most every second: Redis coming back is picked up without a restart.
  retryStrategy: (times: number) => Math.min(times * 100, 1000),
} as const;

/** Connects (failing with SharedStateUnavailable when Redis cannot be reached now). */
export async function connectShared(url: string, fallbackInstances?: number): Promise<SharedState> {
  // Loaded only with REDIS_URL: the client library alone is RSS a single instance never needs (memory: `npm run
  // bench -- load`).
  const { Redis: Client } = await import('ioredis');
  const redis = new Client(url, clientOptions);
  const subscriber = new Client(url, { ...clientOptions, enableOfflineQueue: true });
  // Why the connection is down, from the client's last error: a command refused meanwhile only says it is.
  let lastReason: string | undefined;
  const problem = (error: unknown) => {
    const reason = redisReason(error);
    return `${describeRedis(url)} is not reachable (${reason === 'not connected' ? (lastReason ?? reason) : reason})`;
  };
  // While it is away the client retries every second, each retry an error: said at once, then at growing intervals.
  const outage = createOutageLog({ subject: describeRedis(url), prefix: '[redis]', clock: systemClock });
  // Both connections go down and come back together: the command connection speaks for the two.
  redis.on('error', (error: Error) => {
    lastReason = redisReason(error);
    outage.failed(`[redis] ${problem(error)}`);
  });
  redis.on('ready', () => {
    lastReason = undefined;
    outage.recovered();
  });
  subscriber.on('error', () => undefined);
  try {
    await Promise.all([redis.connect(), subscriber.connect()]);
  } catch (error) {
    redis.disconnect();
    subscriber.disconnect();
    throw new SharedStateUnavailable({ cause: error });
  }
  const instanceId = randomUUID();
  const fanout = createOrderFanout(redis, subscriber, instanceId);
  await fanout.ready;
  // Missed beats while Redis is away are made up by the next; a process killed stops beating and is gone 10 s on.
  const beat = () => redis.set(instanceKey(instanceId), '1', 'PX', INSTANCE_ALIVE_MS).catch(() => undefined);
  await beat();
  const heartbeat = setInterval(beat, INSTANCE_ALIVE_MS / 3).unref();
  return {
    redis,
    instanceId,
    fanout,
    cache: createSharedCache(redis),
    fallbackInstances,
    problem,
    alive: async (id) => (await redis.exists(instanceKey(id))) === 1,
    async close() {
      clearInterval(heartbeat);
      // Closed once what it served has finished: nothing it claimed is still being made.
      await redis.del(instanceKey(instanceId)).catch(() => undefined);
      redis.disconnect();
      subscriber.disconnect();
    },
  };
}

export interface OrderFanout {
  ready: Promise<unknown>;
  /** Tells the other instances that an order changed (fire and forget: SSE clients also re-read on reconnect). */
  publish(orderId: string): void;
  /** Called with the id of each order another instance changed. */
  onOrder(listener: (orderId: string) => void): () => void;
}

const channel = 'cc:order-status';

function createOrderFanout(redis: Redis, subscriber: Redis, instanceId: string): OrderFanout {
  const listeners = new Set<(orderId: string) => void>();
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    const [sender, orderId] = message.split(' ', 2);
    if (sender === instanceId || !orderId) return;
    for (const listener of listeners) listener(orderId);
  });
  return {
    ready: subscriber.subscribe(channel),
    publish(orderId) {
      redis.publish(channel, `${instanceId} ${orderId}`).catch(() => undefined);
    },
    onOrder(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export interface SharedCache {
  /**
   * The value cached under `key` by any instance, or `load()` run once across the instances (the others wait
   * for its answer) and kept `ttlMs`. Failures are not kept. With Redis unreachable it just loads.
   */
  run<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T>;
}

function createSharedCache(redis: Redis, waitMs = 15_000): SharedCache {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  return {
    async run<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
      const valueKey = `cc:cache:${key}`;
      const lockKey = `${valueKey}:loading`;
      try {
        const cached = await redis.get(valueKey);
        if (cached !== null) return JSON.parse(cached) as T;
        const token = randomUUID();
        if ((await redis.set(lockKey, token, 'PX', waitMs, 'NX')) === 'OK') {
          try {
            // Another instance may have stored it and let go between our read and our claim.
            const stored = await redis.get(valueKey);
            if (stored !== null) return JSON.parse(stored) as T;
            const value = await load();
            await redis.set(valueKey, JSON.stringify(value), 'PX', ttlMs).catch(() => undefined);
            return value;
          } finally {
            // Only our own claim is removed (it may have expired and been taken by then).
            await redis
              .eval(
                "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end",
                1,
                lockKey,
                token,
              )
              .catch(() => undefined);
          }
        }
        // Another instance is loading: its answer, once it is there; our own call if it failed or vanished.
        const deadline = Date.now() + waitMs;
        while (Date.now() < deadline) {
          await sleep(15);
          const value = await redis.get(valueKey);
          if (value !== null) return JSON.parse(value) as T;
          if (!(await redis.exists(lockKey))) {
            // Gone: stored just now (read once more), or failed (then we load).
            const late = await redis.get(valueKey);
            if (late !== null) return JSON.parse(late) as T;
            break;
          }
        }
      } catch (error) {
        if (!isRedisDown(error)) throw error;
      }
      return load();
    },
  };
}

/** An error of the connection (as opposed to one of our own code). */
export function isRedisDown(error: unknown): boolean {
  const message = (error as Error)?.message ?? '';
  return (
    error instanceof SharedStateUnavailable ||
    /Connection is closed|Stream isn't writeable|enableOfflineQueue|Command timed out|ECONNREFUSED|ECONNRESET|max retries/i.test(
      message,
    )
  );
}
