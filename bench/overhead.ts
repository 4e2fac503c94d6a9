/**
 * Overhead: what the backend costs next to the bare minimum on the same machine, measured in the same run.
 * - Throughput: requests per second of the cached `GET /api/catalog?country=DE` (the whole middleware stack)
 *   against a bare Hono app on the same adapter serving the same bytes and headers (bench/bare.mjs
 *   `same-bytes`), and `/healthz` against a bare Hono "hello"; every server on plain node + @hono/node-server,
 *   autocannon, no rate cap, the targets measured in turn, five rounds, so drift on the shared machine hits all
 *   alike; each ratio is the median of its rounds' ratios (a target beside its reference in the same round).
 *   The catalog is also measured as a CORS request (an allowed `Origin`, as the widget on a shop's page asks).
 * - Latency: sequential quotes, interleaved so drift hits all alike and paced under the upstream budget:
 *   straight to the sandbox's pricing endpoint, through the backend with a new amount each time (no cache can
 *   answer), and through the backend with one amount (the quote cache answers).
 */
import autocannon, { type Result } from 'autocannon';
import { benchKeys, median, quantile, ratio, round, sleep } from './lib.ts';
import type { Combo } from './load.ts';

export interface OverheadResult {
  throughput: {
    durationS: number;
    connections: number;
    helloRps: number;
    /** `/healthz` through the backend: the app's outer middleware, no `/api` stack, no handler work. */
    healthzRps: number;
    catalogRps: number;
    /** The catalog asked with an allowed `Origin` (CORS answered). */
    catalogCorsRps: number;
    /** The bare Hono app serving the catalog's bytes and headers. */
    sameBytesRps: number;
    catalogBytes: number;
    /** catalog / same-bytes reference. */
    catalogOverSameBytes: number;
    catalogCorsOverSameBytes: number;
    /** healthz / hello. */
    healthzOverHello: number;
    /** catalog / hello (the figure before issue 11). */
    ratio: number;
    helloLatencyP50Ms: number;
    catalogLatencyP50Ms: number;
    catalogNon2xx: number;
  };
  quoteLatency: {
    n: number;
    combo: Combo;
    directMedianMs: number;
    directP90Ms: number;
    proxiedMedianMs: number;
    proxiedP90Ms: number;
    cachedMedianMs: number;
    cachedP90Ms: number;
    /** proxied − direct (medians). */
    addedMs: number;
    proxiedOverDirect: number;
    cachedOverDirect: number;
    failures: number;
  };
}

function blast(
  url: string,
  durationS: number,
  connections: number,
  headers: Record<string, string> = {},
): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, duration: durationS, connections, headers }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

async function timed(url: string, body: unknown): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return { ms: performance.now() - started, ok: response.ok };
}

export async function measureOverhead(options: {
  backendUrl: string;
  helloUrl: string;
  sameBytesUrl: string;
  /** An origin the backend allows (its ALLOWED_ORIGINS). */
  origin: string;
  sandboxUrl: string;
  n?: number;
  durationS?: number;
}): Promise<OverheadResult> {
  const durationS = options.durationS ?? 2;
  const connections = 10;
  const catalogUrl = `${options.backendUrl}/api/catalog?country=DE`;
  const targets = {
    hello: [options.helloUrl, {}],
    healthz: [`${options.backendUrl}/healthz`, {}],
    catalog: [catalogUrl, {}],
    sameBytes: [`${options.sameBytesUrl}/api/catalog?country=DE`, {}],
    catalogCors: [catalogUrl, { origin: options.origin }],
  } as const;
  type Target = keyof typeof targets;
  const runs = new Map<Target, Result[]>();
  // Warm every target (JIT, the catalog cache) before counting.
  for (const [url, headers] of Object.values(targets)) await blast(url, 1, connections, headers);
  const rounds = 5;
  for (let round = 0; round < rounds; round++) {
    for (const [name, [url, headers]] of Object.entries(targets) as [Target, (typeof targets)[Target]][]) {
      const result = await blast(url, durationS, connections, headers);
      runs.set(name, [...(runs.get(name) ?? []), result]);
    }
  }
  const rps = (name: Target) => {
    const list = runs.get(name) ?? [];
    return list.reduce((sum, result) => sum + result.requests.average, 0) / Math.max(1, list.length);
  };
  const p50 = (name: Target) => median((runs.get(name) ?? []).map((result) => result.latency.p50));
  const catalogBytes = (await (await fetch(catalogUrl)).arrayBuffer()).byteLength;
  const share = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;
  /** The median over the rounds of `a`'s requests/s over `b`'s in the same round. */
  const roundRatio = (a: Target, b: Target) => {
    const as = runs.get(a) ?? [];
    const bs = runs.get(b) ?? [];
    return share(median(as.map((result, i) => result.requests.average / (bs[i]?.requests.average ?? 1))), 1);
  };

  const n = options.n ?? 60;
  const combo: Combo = { paymentMethod: 'creditcard', country: 'DE', fiat: 'EUR', crypto: 'BTC' };
  const pricing = `${options.sandboxUrl}/ramp/api/v1/merchant/pricing`;
  const quotes = `${options.backendUrl}/api/quotes/buy`;
  const direct: number[] = [];
  const proxied: number[] = [];
  const cached: number[] = [];
  let failures = 0;
  const cachedBody = { ...combo, fiatAmount: '123.45' };
  await timed(quotes, cachedBody);
  for (let i = 0; i < n; i++) {
    // Distinct amounts: 300.01, 300.02, … for the backend; 400.01, … straight to the sandbox.
    const cents = (i + 1).toString().padStart(2, '0');
    const a = await timed(pricing, {
      api_key: benchKeys.rampPublic,
      payment_method: combo.paymentMethod,
      region: combo.country,
      fiat_currency: combo.fiat,
      crypto_currency: combo.crypto,
      fiat_amount: Number(`400.${cents}`),
    });
    const b = await timed(quotes, { ...combo, fiatAmount: `300.${cents}` });
    const c = await timed(quotes, cachedBody);
    for (const [sample, list] of [
      [a, direct],
      [b, proxied],
      [c, cached],
    ] as const) {
      if (sample.ok) list.push(sample.ms);
      else failures++;
    }
    // The cached quote expires after a few seconds; prime it again (not counted) when needed.
    if (i % 20 === 19) await timed(quotes, cachedBody);
    await sleep(30); // two upstream calls per ~35 ms: ~60/s, under the 90/s budget
  }
  return {
    throughput: {
      durationS,
      connections,
      helloRps: round(rps('hello')),
      healthzRps: round(rps('healthz')),
      catalogRps: round(rps('catalog')),
      catalogCorsRps: round(rps('catalogCors')),
      sameBytesRps: round(rps('sameBytes')),
      catalogBytes,
      catalogOverSameBytes: roundRatio('catalog', 'sameBytes'),
      catalogCorsOverSameBytes: roundRatio('catalogCors', 'sameBytes'),
      healthzOverHello: roundRatio('healthz', 'hello'),
      ratio: share(rps('catalog'), rps('hello')),
      helloLatencyP50Ms: p50('hello'),
      catalogLatencyP50Ms: p50('catalog'),
      catalogNon2xx: (runs.get('catalog') ?? []).reduce((sum, result) => sum + result.non2xx, 0),
    },
    quoteLatency: {
      n,
      combo,
      directMedianMs: round(median(direct)),
      directP90Ms: round(quantile(direct, 0.9)),
      proxiedMedianMs: round(median(proxied)),
      proxiedP90Ms: round(quantile(proxied, 0.9)),
      cachedMedianMs: round(median(cached)),
      cachedP90Ms: round(quantile(cached, 0.9)),
      addedMs: round(median(proxied) - median(direct)),
      proxiedOverDirect: ratio(median(proxied), median(direct)),
      cachedOverDirect: ratio(median(cached), median(direct)),
      failures,
    },
  };
}
