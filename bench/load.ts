/**
 * The upstream budget under load: autocannon plays shoppers typing amounts, POST /api/quotes/buy at a fixed
 * overall rate across 50 (method, country, fiat, crypto) combinations with varied amounts, first against the
 * backend, then (the same request stream, same seed) against the bare pass-through proxy. Upstream arrivals and
 * 429s are counted on the sandbox side; the backend's latency and answers on the load generator's side.
 */
import autocannon, { type Result } from 'autocannon';
import { getJson, quantile, round, sleep } from './lib.ts';
import { openLoop } from './open-loop.ts';
import { prng } from './prng.ts';

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

/**
 * How shoppers arrive: `poisson`, independently at the rate on average (bench/open-loop.ts, timed from when each
 * request was due); `burst`, autocannon's rate limiter, which sends the whole second's requests together at the
 * start of each second (its per-connection timers start at once), timed from when each was sent.
 */
export type ArrivalPattern = 'poisson' | 'burst';

export interface LoadRun {
  target: string;
  arrivals: ArrivalPattern;
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
  upstream: UpstreamCounts;
}

interface Answer {
  status: number;
  body: string;
  ms: number;
  timedOut: boolean;
}

interface LoadOptions {
  label: string;
  url: string;
  sandboxUrl: string;
  combos: Combo[];
  rate: number;
  durationS: number;
  connections: number;
  seed: number;
  arrivals?: ArrivalPattern;
}

const quotePath = '/api/quotes/buy';
const jsonHeaders = { 'content-type': 'application/json' };

/** The Poisson stream through bench/open-loop.ts: every due request, answered or failed. */
async function poissonAnswers(options: LoadOptions, body: () => string): Promise<Answer[]> {
  const arrivals = await openLoop({
    url: options.url,
    method: 'POST',
    path: quotePath,
    headers: jsonHeaders,
    rate: options.rate,
    durationS: options.durationS,
    connections: options.connections,
    seed: options.seed + 1,
    body,
  });
  return arrivals.map((arrival) => ({
    status: arrival.status,
    body: arrival.body,
    ms: arrival.doneMs - arrival.dueMs,
    timedOut: arrival.timedOut,
  }));
}

/** autocannon's rate limiter (the whole second's requests at once): every answer, plus its failure counts. */
async function burstAnswers(
  options: LoadOptions,
  body: () => string,
): Promise<{ answers: Answer[]; sent: number; errors: number; timeouts: number }> {
  const answers: Answer[] = [];
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    overallRate: options.rate,
    duration: options.durationS,
    timeout: 15,
    requests: [
      {
        method: 'POST',
        path: quotePath,
        headers: jsonHeaders,
        setupRequest: (request) => ({ ...request, body: body() }),
        onResponse: (status, responseBody) => {
          answers.push({ status, body: responseBody, ms: Number.NaN, timedOut: false });
        },
      },
    ],
  });
  // autocannon reports the latency on 'response' right after onResponse, for the same request.
  instance.on('response', (_client, _status, _bytes, responseTime) => {
    const last = answers[answers.length - 1];
    if (last && Number.isNaN(last.ms)) last.ms = responseTime;
  });
  const result = await new Promise<Result>((resolve, reject) => {
    instance.on('done', resolve);
    instance.on('error', reject);
  });
  return { answers, sent: result.requests.sent, errors: result.errors, timeouts: result.timeouts };
}

/** An answer's kind for the tables: its status, and for an error its envelope's code (`503 UPSTREAM_BUSY`). */
export function answerKind(status: number, body: string): string {
  if (status < 300) return String(status);
  try {
    const code = (JSON.parse(body) as { error?: { code?: string } }).error?.code;
    return `${status} ${code ?? 'upstream-body'}`;
  } catch {
    return `${status} non-json`;
  }
}

export async function runLoad(options: LoadOptions): Promise<LoadRun> {
  const random = prng(options.seed);
  const body = () => {
    const combo = options.combos[Math.floor(random() * options.combos.length)] as Combo;
    return JSON.stringify({ ...combo, fiatAmount: amountOf(random) });
  };
  const pattern = options.arrivals ?? 'poisson';
  await readUpstream(options.sandboxUrl, 1); // clears the sandbox-side counters
  let answers: Answer[];
  let sent: number;
  let socketErrors: number;
  let timeouts: number;
  if (pattern === 'burst') {
    ({ answers, sent, errors: socketErrors, timeouts } = await burstAnswers(options, body));
  } else {
    const all = await poissonAnswers(options, body);
    sent = all.length;
    answers = all.filter((answer) => answer.status > 0);
    timeouts = all.filter((answer) => answer.timedOut).length;
    socketErrors = all.length - answers.length;
  }
  await sleep(200); // the last upstream calls land
  const upstream = await readUpstream(options.sandboxUrl, options.durationS);

  const byKey = new Map<string, number>();
  const sources = { derived: 0, upstream: 0 };
  for (const answer of answers) {
    if (answer.status < 300) {
      if (answer.body.includes('"source":"derived"')) sources.derived += 1;
      else sources.upstream += 1;
    }
    const key = answerKind(answer.status, answer.body);
    byKey.set(key, (byKey.get(key) ?? 0) + 1);
  }
  const pick = (status?: (s: number) => boolean) => {
    const values = answers.filter((entry) => !status || status(entry.status)).map((entry) => entry.ms);
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
  for (const [key, count] of byKey) {
    if (!key.startsWith('2') && key !== '503 UPSTREAM_BUSY') otherNon2xx[key] = count;
  }
  return {
    target: options.label,
    arrivals: pattern,
    requestedRate: options.rate,
    durationS: options.durationS,
    connections: options.connections,
    sent,
    answered: answers.length,
    achievedRps: round(answers.length / options.durationS),
    ok2xx: ok.n,
    derived: sources.derived,
    priced: sources.upstream,
    upstreamBusy503: byKey.get('503 UPSTREAM_BUSY') ?? 0,
    otherNon2xx,
    socketErrors,
    timeouts,
    latencyMs: {
      p50: all.p50,
      p95: all.p95,
      p99: all.p99,
      max: round(Math.max(...answers.map((entry) => entry.ms))),
    },
    latencyOkMs: { p50: ok.p50, p95: ok.p95, p99: ok.p99 },
    latencyBusyMs: busy.n ? { p50: busy.p50, p95: busy.p95, p99: busy.p99 } : null,
    upstream,
  };
}
