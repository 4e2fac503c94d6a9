/**
 * The one place that asks what a backend depends on whether it answers: the store (a read), Redis (PING), and each
 * upstream API with the configured keys (an authenticated read through the backend's own upstream HTTP layer).
 * `crypto-checkout-backend check` (verdicts.ts) turns each outcome into a verdict with its fix, once; readiness
 * (readiness.ts, `GET /readyz`) into a check result, again and again, its upstream probes within the shared
 * budget. None writes anything, creates an order or moves money.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import type { Store } from '../store/store.ts';
import type { Budget } from '../upstream/budget.ts';
import {
  createUpstreamHttp,
  type UpstreamObserver,
  UpstreamRefusal,
  UpstreamUnreachable,
} from '../upstream/http.ts';

/** The store answers a read: a primary-key lookup of an order that does not exist (nothing is written). */
export async function probeStorage(store: Store): Promise<void> {
  await store.get('orders', '__check__');
}

/** Redis answers PING with PONG. */
export async function probeRedis(redis: Pick<Redis, 'ping'>): Promise<void> {
  const answer = await redis.ping();
  if (answer !== 'PONG') throw new Error(`answered ${answer} to PING`);
}

/** How an upstream probe went wrong, for the caller to word: its kind, the HTTP status, and what was said. */
export interface ProbeFailure {
  /**
   * `refused`: 401/403, or the upstream saying the key is invalid; `unreachable`: no HTTP answer; `timeout`: no
   * answer within UPSTREAM_TIMEOUT_MS; `busy`: our budget spent, the upstream throttling us (429), or the shared
   * budget unreachable (Redis down): the keys were not judged; `answered`: any other refusal or unusable answer.
   */
  kind: 'refused' | 'unreachable' | 'timeout' | 'busy' | 'answered';
  /** The HTTP status, when there was an answer. */
  status?: number;
  /** `connection refused (ECONNREFUSED)`; the upstream's own message (cut to 200 characters); or ours. */
  message: string;
}

/** What went wrong with an upstream call, by kind. */
export function probeFailure(error: unknown): ProbeFailure {
  if (error instanceof UpstreamUnreachable) return { kind: 'unreachable', message: error.reason };
  if (error instanceof UpstreamRefusal) {
    const message = error.upstreamMessage.slice(0, 200);
    const refused =
      error.upstreamStatus === 401 || error.upstreamStatus === 403 || /invalid api ?key/i.test(message);
    return { kind: refused ? 'refused' : 'answered', status: error.upstreamStatus, message };
  }
  if (error instanceof AppError) {
    if (error.code === 'UPSTREAM_TIMEOUT') return { kind: 'timeout', message: 'no answer in time' };
    if (error.code === 'UPSTREAM_BUSY' || error.code === 'SERVICE_UNAVAILABLE')
      return { kind: 'busy', message: error.message };
  }
  const cause = (error as Error)?.cause as Error | undefined;
  const message = (error as Error)?.message ?? String(error);
  return { kind: 'answered', message: cause?.message ? `${message} (${cause.message})` : message };
}

export interface UpstreamProbeOptions {
  /** Readiness: each probe takes a token of the shared budget. The command runs once, outside it. */
  budget?: Budget | undefined;
  /** Told of each call (the metrics), as every upstream call is. */
  observe?: UpstreamObserver | undefined;
  /** Where a failed call is logged (default the logger); the command prints verdicts instead. */
  log?: ((line: string) => void) | undefined;
  fetch?: typeof fetch;
}

/** The two authenticated reads that tell whether the configured keys are accepted. Each resolves or throws. */
export interface UpstreamProbes {
  /** The ramp's public key: its supported currencies (docs/upstream.md#supported-currencies), the catalog's smallest. */
  ramp(): Promise<void>;
  /** The payments API key: one order of the merchant's list (docs/upstream.md#payment-orders). */
  payments(): Promise<void>;
}

export function upstreamProbes(config: Config, options: UpstreamProbeOptions = {}): UpstreamProbes {
  // Their own HTTP layer: no retries (a probe that fails says so).
  const http = (name: string, baseUrl: string, headers?: Record<string, string>) =>
    createUpstreamHttp({
      name,
      baseUrl,
      timeoutMs: config.upstreamTimeoutMs,
      budget: options.budget,
      retries: 0,
      observe: options.observe,
      ...(headers ? { headers } : {}),
      ...(options.log ? { log: options.log } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  const ramp = http('ramp', config.ramp.apiUrl);
  const payments = http('payments', `${config.payments.apiUrl}/v1`, { 'X-API-Key': config.payments.apiKey });
  return {
    async ramp() {
      await ramp.get('/api/v1/merchant/get_supported', {
        query: { api_key: config.ramp.publicKey },
        schema: z.unknown(),
      });
    },
    async payments() {
      await payments.get('/merchants/orders', { query: { page: 1, limit: 1 }, schema: z.unknown() });
    },
  };
}
