/**
 * The quote engine's references shared through Redis (REDIS_URL), so a fresh instance starts from what the others
 * learnt: each upstream answer a combination learns from is written with the few before it (what its fee
 * corrections were fitted to, quotes/fee-model/learn.ts), kept as long as a reference may still price
 * (QUOTE_DERIVE_MAX_STALE_MS after its newest answer); at start an instance reads them and learns each combination
 * from them (the engine's `adopt`), with no upstream call.
 *
 * Bounded: at most MAX_SHARED combinations (an index scored by when each last learnt: the oldest go first), at most
 * ANSWERS answers each, written at most once a combination per WRITE_EVERY_MS (its newest answers then).
 */
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { buyQuoteData, type RampMethod, sellQuoteData } from '../../schemas/upstream-ramp.ts';
import type { AnyQuote, AnyRequest, Combination, SharedAnswer } from '../engine/types.ts';
import type { Side } from '../fee-model/derive.ts';

const INDEX = 'cc:warm:references';
const entryKey = (combination: string) => `cc:warm:reference:${combination}`;
/** Combinations shared at most (the busiest sandbox load asks for about 50). */
export const MAX_SHARED = 500;
/** Answers kept per combination: the fee model is fitted to a few at different amounts. */
const ANSWERS = 4;
const WRITE_EVERY_MS = 1000;

const methodSchema = z.object({
  slug: z.string(),
  group: z.string(),
  name: z.string(),
  feePercent: z.number(),
  fixedFeeEur: z.number(),
  fixedFeeByCurrency: z.record(z.string(), z.number()),
  minFeeEur: z.number(),
  minEur: z.number().nullable(),
  maxEur: z.number().nullable(),
  currencies: z.array(z.string()),
  isDefault: z.boolean(),
  disabled: z.boolean(),
  icon: z.string().nullable(),
  iconLight: z.string().nullable(),
  order: z.number().nullable(),
  countries: z.array(z.string()),
  ignored: z.array(z.string()),
}) satisfies z.ZodType<RampMethod>;

const requestSchema = z.object({
  method: z.string(),
  region: z.string().optional(),
  fiat: z.string(),
  crypto: z.string(),
  markup: z.number(),
});

const entrySchema = z.discriminatedUnion('side', [
  z.object({
    side: z.literal('buy'),
    request: requestSchema.extend({ region: z.string() }),
    method: methodSchema,
    answers: z.array(z.object({ quote: buyQuoteData, at: z.number() })).max(ANSWERS),
  }),
  z.object({
    side: z.literal('sell'),
    request: requestSchema,
    method: methodSchema,
    answers: z.array(z.object({ quote: sellQuoteData, at: z.number() })).max(ANSWERS),
  }),
]);

/** One combination as shared: its request without an amount, its method, its latest upstream answers (newest first). */
export interface SharedReference {
  key: string;
  side: Side;
  request: AnyRequest;
  method: RampMethod;
  answers: SharedAnswer[];
}

const withoutAmount = (request: AnyRequest): AnyRequest => {
  const { fiatAmount: _fiat, cryptoAmount: _crypto, ...rest } = request;
  return rest as AnyRequest;
};

export function createSharedReferences(options: {
  redis: Redis;
  now: () => number;
  /** How long a reference may still price after its upstream answer (the engine's maxStaleMs). */
  keepMs: number;
  log: (line: string) => void;
}) {
  const { redis, now, keepMs } = options;
  const latest = new LRUCache<string, SharedReference>({ max: MAX_SHARED });
  const dirty = new Set<string>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let failing = false;

  async function flush(): Promise<void> {
    if (!dirty.size) return;
    const keys = [...dirty];
    dirty.clear();
    const at = now();
    const batch = redis.multi();
    for (const key of keys) {
      const entry = latest.get(key);
      const newest = entry?.answers[0];
      if (!entry || !newest) continue;
      const ttl = Math.round(keepMs - (at - newest.at));
      if (ttl <= 0) continue;
      const { side, request, method, answers } = entry;
      batch.set(entryKey(key), JSON.stringify({ side, request, method, answers }), 'PX', ttl);
      batch.zadd(INDEX, newest.at, key);
    }
    batch.zremrangebyscore(INDEX, '-inf', at - keepMs);
    batch.zremrangebyrank(INDEX, 0, -(MAX_SHARED + 1));
    try {
      await batch.exec();
      failing = false;
    } catch (error) {
      // Redis away: the next answers are written once it is back (what is kept here stays the newest).
      for (const key of keys) dirty.add(key);
      if (!failing) options.log(`[warm-start] sharing references failed: ${(error as Error).message}`);
      failing = true;
    }
  }

  return {
    /** The engine's `onLearn`: the combination's answer kept, to be written with the next batch. */
    learnt(combination: Combination, quote: AnyQuote, at: number): void {
      const kept = latest.get(combination.key);
      const answers = [{ quote, at }, ...(kept?.answers ?? [])].slice(0, ANSWERS);
      latest.set(combination.key, {
        key: combination.key,
        side: combination.side,
        request: withoutAmount(combination.request),
        method: combination.method,
        answers,
      });
      dirty.add(combination.key);
    },

    /** Keeps what was read as this instance's own (its next answer is written beside those answers). */
    seed(entry: SharedReference): void {
      if (!latest.has(entry.key)) latest.set(entry.key, entry);
    },

    /** What the other instances shared and still prices, busiest (most recently learnt) first. */
    async read(): Promise<SharedReference[]> {
      const since = now() - keepMs;
      const keys = await redis.zrevrangebyscore(INDEX, '+inf', since, 'LIMIT', 0, MAX_SHARED);
      if (!keys.length) return [];
      const values = await redis.mget(keys.map(entryKey));
      const found: SharedReference[] = [];
      values.forEach((value, index) => {
        if (value === null) return;
        let json: unknown;
        try {
          json = JSON.parse(value);
        } catch {
          return;
        }
        const parsed = entrySchema.safeParse(json);
        if (!parsed.success) return;
        const answers = parsed.data.answers.filter((answer) => answer.at >= since) as SharedAnswer[];
        if (!answers.length) return;
        const { side, request, method } = parsed.data;
        found.push({ key: keys[index] as string, side, request: request as AnyRequest, method, answers });
      });
      return found;
    },

    start(): void {
      timer ??= setInterval(() => void flush(), WRITE_EVERY_MS);
      timer.unref?.();
    },

    /** Writes what is left (a graceful stop) and stops. */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await flush();
    },
  };
}

export type SharedReferences = ReturnType<typeof createSharedReferences>;
