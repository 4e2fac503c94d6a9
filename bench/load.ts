/**
 * The upstream budget under load: autocannon plays shoppers typing amounts, POST /api/quotes/buy at a fixed
 * overall rate across 50 (method, country, fiat, crypto) combinations with varied amounts, first against the
 * backend, then (the same request stream, same seed) against the bare pass-through proxy. Upstream arrivals and
 * 429s are counted on the sandbox side; the backend's latency and answers on the load generator's side.
 */
import autocannon, { type Result } from 'autocannon';
import { getJson, quantile, round, sleep } from './lib.ts';

export interface Combo {
  paymentMethod: string;
  country: string;
  fiat: string;
  crypto: string;
}

interface CatalogMethod {
  id: string;
  currencies: string[];
}
interface Catalog {
  country: string;
  cryptos: { code: string }[];
  paymentMethods: CatalogMethod[];
}

/** Fiats worth at least ~0.5 EUR, so the amounts below (50–950) stay inside every method's limits. */
const strongFiats = ['EUR', 'USD', 'GBP', 'CHF', 'CAD', 'AUD'];
const countries = ['DE', 'FR', 'GB', 'US', 'NL', 'ES', 'IT', 'PL', 'CH', 'CA', 'AU', 'IE', 'AT', 'BE', 'PT'];
const cryptos = [
  'BTC',
  'ETH',
  'USDC_BASE',
  'SOL',
  'USDT_TRON',
  'LTC',
  'XRP',
  'ETH_BASE',
  'USDC_POLYGON',
  'DOGE',
];

/** A small seeded PRNG (mulberry32): both targets get the same request stream. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const popular = [50, 100, 150, 200, 250, 300, 500, 750];

/** What a shopper types: 60 % a popular round amount, 40 % any amount with cents between 50 and 950. */
export function amountOf(random: () => number): string {
  if (random() < 0.6) return String(popular[Math.floor(random() * popular.length)]);
  return (50 + random() * 900).toFixed(2);
}

/**
 * 50 combinations the backend prices (each checked with one quote, paced under the budget), spread
 * round-robin over countries, methods, fiats and cryptos.
 */
export async function buildCombos(backendUrl: string, wanted = 50): Promise<Combo[]> {
  const perCountry: Combo[][] = [];
  for (const country of countries) {
    const catalog = await getJson<Catalog>(`${backendUrl}/api/catalog?country=${country}`);
    const offered = new Set(catalog.cryptos.map((crypto) => crypto.code));
    const list: Combo[] = [];
    let turn = perCountry.length;
    for (const method of catalog.paymentMethods) {
      for (const fiat of method.currencies.filter((code) => strongFiats.includes(code)).slice(0, 2)) {
        const crypto = cryptos.filter((code) => offered.has(code))[turn++ % cryptos.length];
        if (crypto) list.push({ paymentMethod: method.id, country, fiat, crypto });
      }
    }
    perCountry.push(list);
  }
  const candidates: Combo[] = [];
  for (let i = 0; candidates.length < wanted * 2 && perCountry.some((list) => list[i]); i++) {
    for (const list of perCountry) if (list[i]) candidates.push(list[i] as Combo);
  }
  const combos: Combo[] = [];
  for (const combo of candidates) {
    if (combos.length >= wanted) break;
    const response = await fetch(`${backendUrl}/api/quotes/buy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...combo, fiatAmount: '50' }),
    });
    await response.arrayBuffer();
    if (response.ok) combos.push(combo);
    await sleep(25); // 40/s, well under the budget
  }
  if (combos.length < wanted) throw new Error(`only ${combos.length} priceable combinations found`);
  return combos;
}

export interface UpstreamCounts {
  calls: number;
  throttled429: number;
  /** The most arrivals in any sliding one-second window. */
  maxPerSecond: number;
  /** The most arrivals in one calendar second (from the first arrival). */
  maxPerSecondBucket: number;
  meanPerSecond: number;
  max429PerSecond: number;
  /** Arrivals in each calendar second from the first one. */
  perSecond: number[];
}

function maxInWindow(times: number[], windowMs: number): number {
  let best = 0;
  let first = 0;
  for (let last = 0; last < times.length; last++) {
    while ((times[last] as number) - (times[first] as number) >= windowMs) first++;
    best = Math.max(best, last - first + 1);
  }
  return best;
}

export async function readUpstream(sandboxUrl: string, seconds: number): Promise<UpstreamCounts> {
  const { arrivals, throttled } = await getJson<{ arrivals: number[]; throttled: number[] }>(
    `${sandboxUrl}/__bench/upstream?reset=1`,
  );
  const origin = arrivals[0] ?? 0;
  const buckets = new Map<number, number>();
  for (const at of arrivals) {
    const second = Math.floor((at - origin) / 1000);
    buckets.set(second, (buckets.get(second) ?? 0) + 1);
  }
  return {
    calls: arrivals.length,
    throttled429: throttled.length,
    maxPerSecond: maxInWindow(arrivals, 1000),
    maxPerSecondBucket: Math.max(0, ...buckets.values()),
    meanPerSecond: round(arrivals.length / seconds),
    max429PerSecond: maxInWindow(throttled, 1000),
    perSecond: Array.from(
      { length: Math.max(0, ...buckets.keys()) + 1 },
      (_, second) => buckets.get(second) ?? 0,
    ),
  };
}

export interface LoadRun {
  target: string;
  requestedRate: number;
  durationS: number;
  connections: number;
  sent: number;
  answered: number;
  achievedRps: number;
  ok2xx: number;
  /** 2xx quotes by `source`: derived by the quote engine, or priced by the upstream for that amount. */
  derived: number;
  priced: number;
  upstreamBusy503: number;
  /** Non-2xx answers other than 503 UPSTREAM_BUSY, by status and error code. */
  otherNon2xx: Record<string, number>;
  socketErrors: number;
  timeouts: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  latencyOkMs: { p50: number; p95: number; p99: number };
  latencyBusyMs: { p50: number; p95: number; p99: number } | null;
  /** autocannon's own histogram (corrected for coordinated omission). */
  autocannonLatencyMs: { p50: number; p97_5: number; p99: number };
  upstream: UpstreamCounts;
}

export async function runLoad(options: {
  label: string;
  url: string;
  sandboxUrl: string;
  combos: Combo[];
  rate: number;
  durationS: number;
  connections: number;
  seed: number;
}): Promise<LoadRun> {
  const random = prng(options.seed);
  const next = () => {
    const combo = options.combos[Math.floor(random() * options.combos.length)] as Combo;
    return JSON.stringify({ ...combo, fiatAmount: amountOf(random) });
  };
  const answers = new Map<string, number>();
  const sources = { derived: 0, upstream: 0 };
  const latencies: { ms: number; status: number }[] = [];
  await readUpstream(options.sandboxUrl, 1); // clears the sandbox-side counters
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    overallRate: options.rate,
    duration: options.durationS,
    timeout: 15,
    requests: [
      {
        method: 'POST',
        path: '/api/quotes/buy',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: next() }),
        onResponse: (status, body) => {
          let key = String(status);
          if (status < 300) {
            if (body.includes('"source":"derived"')) sources.derived += 1;
            else sources.upstream += 1;
          } else {
            try {
              const code = (JSON.parse(body) as { error?: { code?: string } }).error?.code;
              key = `${status} ${code ?? 'upstream-body'}`;
            } catch {
              key = `${status} non-json`;
            }
          }
          answers.set(key, (answers.get(key) ?? 0) + 1);
        },
      },
    ],
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    latencies.push({ ms: responseTime, status: statusCode });
  });
  const result = await new Promise<Result>((resolve, reject) => {
    instance.on('done', resolve);
    instance.on('error', reject);
  });
  await sleep(200); // the last upstream calls land
  const upstream = await readUpstream(options.sandboxUrl, options.durationS);
  const pick = (status?: (s: number) => boolean) => {
    const values = latencies.filter((entry) => !status || status(entry.status)).map((entry) => entry.ms);
    return {
      p50: round(quantile(values, 0.5)),
      p95: round(quantile(values, 0.95)),
      p99: round(quantile(values, 0.99)),
      n: values.length,
    };
  };
  const all = pick();
  const busy = pick((s) => s === 503);
  const ok = pick((s) => s >= 200 && s < 300);
  const otherNon2xx: Record<string, number> = {};
  for (const [key, count] of answers) {
    if (!key.startsWith('2') && key !== '503 UPSTREAM_BUSY') otherNon2xx[key] = count;
  }
  return {
    target: options.label,
    requestedRate: options.rate,
    durationS: options.durationS,
    connections: options.connections,
    sent: result.requests.sent,
    answered: latencies.length,
    achievedRps: round(latencies.length / options.durationS),
    ok2xx: result['2xx'],
    derived: sources.derived,
    priced: sources.upstream,
    upstreamBusy503: answers.get('503 UPSTREAM_BUSY') ?? 0,
    otherNon2xx,
    socketErrors: result.errors,
    timeouts: result.timeouts,
    latencyMs: {
      p50: all.p50,
      p95: all.p95,
      p99: all.p99,
      max: round(Math.max(...latencies.map((entry) => entry.ms))),
    },
    latencyOkMs: { p50: ok.p50, p95: ok.p95, p99: ok.p99 },
    latencyBusyMs: busy.n ? { p50: busy.p50, p95: busy.p95, p99: busy.p99 } : null,
    autocannonLatencyMs: { p50: result.latency.p50, p97_5: result.latency.p97_5, p99: result.latency.p99 },
    upstream,
  };
}
