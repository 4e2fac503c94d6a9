/**
 * Time to first quote in Chromium. The backend serves `/bench/page` (the script-tag bundle in <head>, nothing
 * else). For each load the page first times bare `fetch` round trips to the same backend (`/healthz`, and the
 * cached `/api/catalog`), then marks and appends `<crypto-checkout mode="buy" amount=… country="DE" fiat="EUR"
 * crypto="BTC" payment-method="creditcard">` and waits for its `checkout-quote` event plus the element's
 * update (the quote is in the shadow DOM). Resource timing gives every request the element made in between.
 *
 * Two series, each a fresh page per load in the same browser:
 * - `cold`: a new browser context per load (an empty HTTP cache: a first visit);
 * - `warm`: one context for all loads (the catalog may come from the HTTP cache: a returning shopper).
 * Each load asks for a different amount (100, 101, …) so no load is answered from the backend's quote cache.
 */
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { median, round } from './lib.ts';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

interface Resource {
  url: string;
  initiator: string;
  /** ms from the element being appended. */
  start: number;
  end: number;
}

export interface Load {
  amount: string;
  ttfqMs: number;
  firstRenderMs: number;
  /** Median of three bare fetch round trips to `/healthz`. */
  fetchRttMs: number;
  catalogFetchMs: number;
  error?: string;
  quoteShown: boolean;
  resources: Resource[];
}

export interface SeriesSummary {
  loads: number;
  failed: number;
  ttfqMedianMs: number;
  fetchRttMedianMs: number;
  cachedCatalogFetchMedianMs: number;
  /** Per load ttfq / fetch round trip, then the median. */
  ttfqInRoundTrips: number;
  firstRenderMedianMs: number;
  requestsBeforeFirstQuote: number;
  requestsBeforeFirstQuoteList: string[];
  catalogAndQuoteOverlap: boolean | null;
  /** Median of (quote request start − catalog response end); > 0 means the quote waited for the catalog. */
  quoteStartAfterCatalogEndMs: number | null;
  catalogMs: number | null;
  quoteRequestMs: number | null;
  quoteStartMs: number | null;
}

export interface TtfqResult {
  browser: string;
  cold: SeriesSummary;
  warm: SeriesSummary;
  samples: { cold: Load[]; warm: Load[] };
}

async function measureLoad(context: BrowserContext, pageUrl: string, amount: string): Promise<Load> {
  const page = await context.newPage();
  // tsx (esbuild keepNames) wraps named inner functions in `__name(…)`; the page has no such helper.
  await page.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  try {
    await page.goto(pageUrl, { waitUntil: 'load' });
    await page.waitForFunction(() => customElements.get('crypto-checkout') !== undefined);
    return await page.evaluate(
      async ({ amount, timeoutMs }) => {
        const roundTrip = async (path: string) => {
          const started = performance.now();
          const response = await fetch(path, { cache: 'no-store' });
          await response.arrayBuffer();
          return performance.now() - started;
        };
        await roundTrip('/healthz');
        const health = [
          await roundTrip('/healthz'),
          await roundTrip('/healthz'),
          await roundTrip('/healthz'),
        ];
        health.sort((a, b) => a - b);
        const catalogFetchMs = await roundTrip('/api/catalog?country=DE');

        const el = document.createElement('crypto-checkout') as HTMLElement & {
          updateComplete?: Promise<unknown>;
        };
        const attributes: Record<string, string> = {
          mode: 'buy',
          amount,
          country: 'DE',
          fiat: 'EUR',
          crypto: 'BTC',
          'payment-method': 'creditcard',
        };
        for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
        const outcome = new Promise<{ at: number; error?: string }>((resolve) => {
          el.addEventListener(
            'checkout-quote',
            () => {
              // The event fires as the quote arrives; the element renders it in its next update.
              Promise.resolve(el.updateComplete).then(() => resolve({ at: performance.now() }));
            },
            { once: true },
          );
          el.addEventListener(
            'checkout-error',
            (event) =>
              resolve({ at: performance.now(), error: JSON.stringify((event as CustomEvent).detail) }),
            { once: true },
          );
          setTimeout(() => resolve({ at: performance.now(), error: 'timeout' }), timeoutMs);
        });
        let firstRenderMs = Number.NaN;
        performance.mark('bench:connect');
        const start = performance.now();
        document.getElementById('root')?.append(el);
        Promise.resolve(el.updateComplete).then(() => {
          firstRenderMs = performance.now() - start;
        });
        const { at, error } = await outcome;
        performance.mark('bench:first-quote');
        const quote = el.shadowRoot?.querySelector('[part="quote"]')?.textContent ?? '';
        const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((entry) => entry.startTime >= start && entry.startTime <= at)
          .map((entry) => ({
            url: entry.name.replace(location.origin, ''),
            initiator: entry.initiatorType,
            start: entry.startTime - start,
            end: entry.responseEnd - start,
          }));
        return {
          amount,
          ttfqMs: at - start,
          firstRenderMs,
          fetchRttMs: health[1] as number,
          catalogFetchMs,
          ...(error ? { error } : {}),
          quoteShown: /\d/.test(quote),
          resources,
        };
      },
      { amount, timeoutMs: 10_000 },
    );
  } finally {
    await page.close();
  }
}

function summarise(loads: Load[]): SeriesSummary {
  const ok = loads.filter((load) => !load.error && load.quoteShown);
  const find = (load: Load, part: string) => load.resources.find((resource) => resource.url.includes(part));
  const pairs = ok
    .map((load) => ({ catalog: find(load, '/api/catalog'), quote: find(load, '/api/quotes/') }))
    .filter((pair) => pair.quote);
  const withCatalog = pairs.filter((pair) => pair.catalog);
  const typical = ok[Math.floor(ok.length / 2)];
  const nullable = (values: number[]) => (values.length ? round(median(values)) : null);
  return {
    loads: loads.length,
    failed: loads.length - ok.length,
    ttfqMedianMs: round(median(ok.map((load) => load.ttfqMs))),
    fetchRttMedianMs: round(median(ok.map((load) => load.fetchRttMs))),
    cachedCatalogFetchMedianMs: round(median(ok.map((load) => load.catalogFetchMs))),
    ttfqInRoundTrips: round(median(ok.map((load) => load.ttfqMs / load.fetchRttMs))),
    firstRenderMedianMs: round(median(ok.map((load) => load.firstRenderMs))),
    requestsBeforeFirstQuote: median(ok.map((load) => load.resources.length)),
    requestsBeforeFirstQuoteList: typical
      ? typical.resources.map((resource) => `${resource.initiator} ${resource.url}`)
      : [],
    catalogAndQuoteOverlap: withCatalog.length
      ? withCatalog.every((pair) => (pair.quote as Resource).start < (pair.catalog as Resource).end)
      : null,
    quoteStartAfterCatalogEndMs: nullable(
      withCatalog.map((pair) => (pair.quote as Resource).start - (pair.catalog as Resource).end),
    ),
    catalogMs: nullable(
      withCatalog.map((pair) => (pair.catalog as Resource).end - (pair.catalog as Resource).start),
    ),
    quoteRequestMs: nullable(
      pairs.map((pair) => (pair.quote as Resource).end - (pair.quote as Resource).start),
    ),
    quoteStartMs: nullable(pairs.map((pair) => (pair.quote as Resource).start)),
  };
}

export async function measureTtfq(backendUrl: string, loads = 20): Promise<TtfqResult> {
  const executablePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  const browser: Browser = await chromium.launch({ executablePath, headless: true, args: chromiumArgs });
  const pageUrl = `${backendUrl}/bench/page`;
  try {
    // One discarded load warms the backend (catalog cache, JIT) and the browser.
    const warmup = await browser.newContext();
    await measureLoad(warmup, pageUrl, '99');
    await warmup.close();

    const cold: Load[] = [];
    for (let i = 0; i < loads; i++) {
      const context = await browser.newContext();
      cold.push(await measureLoad(context, pageUrl, String(100 + i)));
      await context.close();
    }
    const warm: Load[] = [];
    const shared = await browser.newContext();
    for (let i = 0; i < loads; i++) warm.push(await measureLoad(shared, pageUrl, String(200 + i)));
    await shared.close();
    return {
      browser: `Chromium ${browser.version()}`,
      cold: summarise(cold),
      warm: summarise(warm),
      samples: { cold, warm },
    };
  } finally {
    await browser.close();
  }
}
