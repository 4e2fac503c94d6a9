/**
 * Overhead: what the backend costs next to the bare minimum on the same machine, measured in the same run.
 * - Throughput: requests per second of the cached `GET /api/catalog?country=DE` (the whole middleware stack)
 *   against a bare Hono "hello" (same process kind: node + tsx + @hono/node-server), autocannon, no rate cap.
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
    catalogBytes: number;
    /** catalog / hello. */
    ratio: number;
    /** hello / catalog: how many times cheaper the bare app is. */
    helloOverCatalog: number;
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

function blast(url: string, durationS: number, connections: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, duration: durationS, connections }, (error, result) =>
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
  sandboxUrl: string;
  n?: number;
  durationS?: number;
}): Promise<OverheadResult> {
  const durationS = options.durationS ?? 4;
  const connections = 10;
  // Warm both (JIT, the catalog cache) before counting.
  await blast(options.helloUrl, 1, connections);
  await blast(`${options.backendUrl}/api/catalog?country=DE`, 1, connections);
  const hello = await blast(options.helloUrl, durationS, connections);
  const healthz = await blast(`${options.backendUrl}/healthz`, durationS, connections);
  const catalogBytes = (await (await fetch(`${options.backendUrl}/api/catalog?country=DE`)).arrayBuffer())
    .byteLength;
  const catalog = await blast(`${options.backendUrl}/api/catalog?country=DE`, durationS, connections);

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
      helloRps: round(hello.requests.average),
      healthzRps: round(healthz.requests.average),
      catalogRps: round(catalog.requests.average),
      catalogBytes,
      ratio: Math.round((catalog.requests.average / hello.requests.average) * 1000) / 1000,
      helloOverCatalog: ratio(hello.requests.average, catalog.requests.average),
      helloLatencyP50Ms: hello.latency.p50,
      catalogLatencyP50Ms: catalog.latency.p50,
      catalogNon2xx: catalog.non2xx,
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
