/**
 * The upstream budget shared by every instance through Redis: at most `perSecond` calls in any window across
 * all of them, with the rule of the process budget (budget.ts): a token is held from its grant until one
 * window after its call FINISHED. One Lua script grants atomically (Redis runs scripts one at a time), on
 * Redis's own clock, so the instances' clocks do not matter.
 *
 * The tokens are a sorted set scored by when each comes back. A granted token is scored at the latest its call
 * can finish (grant + the call's timeout): an instance killed mid-call cannot hold it for ever. When the call
 * finishes, its token is rescored to the real finish time.
 *
 * Redis unreachable: with `fallbackInstances` set, this instance uses its own process budget of
 * perSecond ÷ fallbackInstances (together still within the limit); otherwise the call is refused with 503
 * SERVICE_UNAVAILABLE (the documented default: never risk the upstream's limit).
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AppError } from '../errors.ts';
import { logger } from '../logger.ts';
import { isRedisDown } from '../shared/redis.ts';
import { type Budget, type BudgetStats, type Release, UpstreamBudget } from './budget.ts';

// KEYS[1] tokens; ARGV: perSecond, windowMs, holdMs, id. Returns {granted (1/0), tokens held, wait ms}.
const acquireScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local limit, window, hold = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local held = redis.call('ZCARD', KEYS[1])
if held < limit then
  redis.call('ZADD', KEYS[1], now + hold, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], math.ceil(hold + window * 2))
  return {1, held + 1, 0}
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {0, held, tostring(tonumber(first[2]) + window - now)}
`;

// KEYS[1] tokens; ARGV: id. The call finished now: its token comes back one window from now.
const releaseScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
redis.call('ZADD', KEYS[1], 'XX', now, ARGV[1])
return 1
`;

export interface RedisBudgetOptions {
  redis: Redis;
  perSecond: number;
  windowMs?: number;
  /** The longest a call can run (the upstream timeout, with its retries' headroom). */
  holdMs: number;
  /** How long a call may wait for a token (default 1 s). */
  maxWaitMs?: number;
  /** Calls of this instance that may wait at once (default perSecond). */
  maxQueue?: number;
  /** Divide the budget by this with Redis down, instead of refusing. */
  fallbackInstances?: number | undefined;
  key?: string;
  log?: (line: string) => void;
}

export class RedisBudget implements Budget {
  readonly perSecond: number;
  readonly #o: Required<Omit<RedisBudgetOptions, 'fallbackInstances' | 'log'>>;
  readonly #fallback: UpstreamBudget | undefined;
  readonly #log: (line: string) => void;
  #queued = 0;
  #inFlight = 0;
  #closed = false;
  /** Redis was unreachable at the last attempt (logged once per outage). */
  #down = false;
  #stats = { granted: 0, refused: 0, waited: 0, maxInWindow: 0, throttledByUpstream: 0 };

  constructor(options: RedisBudgetOptions) {
    this.perSecond = options.perSecond;
    this.#o = {
      redis: options.redis,
      perSecond: options.perSecond,
      windowMs: options.windowMs ?? 1000,
      holdMs: options.holdMs,
      maxWaitMs: options.maxWaitMs ?? 1000,
      maxQueue: options.maxQueue ?? options.perSecond,
      key: options.key ?? 'cc:upstream-budget',
    };
    this.#log = options.log ?? logger.warn;
    this.#fallback = options.fallbackInstances
      ? new UpstreamBudget({
          perSecond: Math.max(1, Math.floor(options.perSecond / options.fallbackInstances)),
          ...(options.windowMs ? { windowMs: options.windowMs } : {}),
        })
      : undefined;
  }

  async acquire(signal?: AbortSignal): Promise<Release> {
    const started = performance.now();
    let waited = false;
    for (;;) {
      if (this.#closed) throw this.#busy(this.#o.windowMs);
      let reply: [number, number, string];
      try {
        const id = randomUUID();
        reply = (await this.#o.redis.eval(
          acquireScript,
          1,
          this.#o.key,
          this.#o.perSecond,
          this.#o.windowMs,
          this.#o.holdMs,
          id,
        )) as [number, number, string];
        this.#down = false;
        if (reply[0] === 1) {
          if (waited) this.#queued -= 1;
          return this.#grant(id, reply[1]);
        }
      } catch (error) {
        if (waited) this.#queued -= 1;
        if (!isRedisDown(error)) throw error;
        if (!this.#down) {
          this.#log(
            this.#fallback
              ? `[budget] Redis is unreachable; using this instance's share of the budget (${this.#fallback.perSecond}/s)`
              : '[budget] Redis is unreachable; refusing upstream calls (REDIS_FALLBACK_INSTANCES is not set)',
          );
        }
        this.#down = true;
        if (this.#fallback) return this.#fallback.acquire(signal);
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          'The shared request budget is unavailable; try again shortly.',
          {
            retryAfter: 1,
          },
        );
      }
      const wait = Number(reply[2]);
      const left = this.#o.maxWaitMs - (performance.now() - started);
      if (!waited && this.#queued >= this.#o.maxQueue) {
        this.#stats.refused += 1;
        throw this.#busy(wait);
      }
      if (!(wait <= left)) {
        if (waited) this.#queued -= 1;
        this.#stats.refused += 1;
        throw this.#busy(wait);
      }
      if (!waited) {
        waited = true;
        this.#queued += 1;
        this.#stats.waited += 1;
      }
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, Math.max(1, Math.ceil(wait)));
        signal?.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            this.#queued -= 1;
            reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
          },
          { once: true },
        );
      });
    }
  }

  noteThrottled(): void {
    this.#stats.throttledByUpstream += 1;
  }

  /** This instance's view (its grants, its waiters); `maxInWindow` is the most tokens held in all, as seen here. */
  stats(): BudgetStats {
    return {
      perSecond: this.perSecond,
      ...this.#stats,
      queued: this.#queued,
      inFlight: this.#inFlight,
      inWindow: this.#inFlight,
    };
  }

  close(): void {
    this.#closed = true;
    this.#fallback?.close();
  }

  #grant(id: string, held: number): Release {
    this.#stats.granted += 1;
    this.#stats.maxInWindow = Math.max(this.#stats.maxInWindow, held);
    this.#inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight -= 1;
      // Should this fail, the token keeps its provisional score (grant + holdMs): later than needed, never early.
      this.#o.redis.eval(releaseScript, 1, this.#o.key, id).catch(() => undefined);
    };
  }

  #busy(waitMs: number): AppError {
    return new AppError(
      'UPSTREAM_BUSY',
      'Too many requests to the payment provider right now; try again shortly.',
      {
        retryAfter: Math.max(1, Math.ceil(waitMs / 1000)),
      },
    );
  }
}
