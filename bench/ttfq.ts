/**
 * Time to first quote in Chromium. The backend serves `/bench/page` (the script-tag bundle in <head>, nothing
 * else). For each load the page first times bare `fetch` round trips to the same backend (`/healthz`, and the
 * cached `/api/catalog`), then marks and appends `<crypto-checkout mode="buy" amount=… country="DE" fiat="EUR"
 * crypto="BTC" payment-method="creditcard">` and waits for its `checkout-quote` event plus the element's
 * update (the quote is in the shadow DOM). Resource timing gives every request the element made in between.
 *
 * The breakdown of each load, all in the page: the bundle's fetch and evaluation (marks around the script tag,
 * before the clock starts) and when its chunks had made the element (from navigation start); the element's first
 * render; each request's start and end (resource timing) and how long the backend spent on it, upstream included
 * (`Server-Timing`, added by bench/server.ts); every update of the element before the first quote (its
 * `performUpdate` timed on the instance); long tasks (`PerformanceObserver`); the next frame after the quote
 * is committed (the quote painted); then ten updates forced once it shows (what its age costs each second).
 *
 * Four series, each a fresh page per load in the same browser, each load asking for a different amount (100,
 * 101, …) so none is answered from the backend's quote cache:
 * - `cold`: a new browser context per load (an empty HTTP cache: a first visit);
 * - `warm`: one context for all loads (the catalog may come from the HTTP cache: a returning shopper);
 * - the same two with Chromium's network emulation (`Network.emulateNetworkConditions`, `latency` ms added to
 *   every request), so that a round trip costs what it does on a real connection; the bare fetch round trip is
 *   measured under the same emulation.
 */
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import chromiumFlags from '../scripts/chromium-flags.json' with { type: 'json' };
import { median, round } from './lib.ts';

export const chromiumArgs: string[] = chromiumFlags;

/** The latency the emulated series adds to each request (ms): a good fixed or mobile connection. */
export const EMULATED_LATENCY_MS = 40;

interface Resource {
  url: string;
  initiator: string;
  /** ms from the element being appended. */
  start: number;
  end: number;
  /** `Server-Timing` of the answer: `app` (the backend's handler) and `upstream` (its upstream calls), ms. */
  serverMs?: number;
  upstreamMs?: number;
  /** Answered from the HTTP cache (no bytes transferred). */
  cached: boolean;
}

/** One update of the element (`performUpdate`: willUpdate, render, commit, updated), ms from the append. */
interface Update {
  start: number;
  end: number;
}

export interface Load {
  amount: string;
  ttfqMs: number;
  /** The next frame after the quote was committed (rAF, then a task): the quote painted. */
  paintedMs: number;
  firstRenderMs: number;
  /** Median of three bare fetch round trips to `/healthz`. */
  fetchRttMs: number;
  catalogFetchMs: number;
  /** The script-tag bundle: fetch (resource timing) and evaluation (marks around the tag), before the clock. */
  bundleFetchMs: number;
  bundleEvalMs: number;
  /** The element defined (its chunks, and what they import, fetched and run), ms from navigation start. */
  definedMs: number;
  updates: Update[];
  /** Ten updates forced once the quote shows (what the quote's age costs each second), ms each. */
  laterUpdatesMs: number[];
  longTasks: { start: number; duration: number }[];
  error?: string;
  quoteShown: boolean;
  resources: Resource[];
}

/** Medians over the loads of each step of the critical path (ms; from the append unless said otherwise). */
export interface Breakdown {
  bundleFetchMs: number | null;
  bundleEvalMs: number | null;
  definedMs: number | null;
  firstRenderMs: number | null;
  catalogStartMs: number | null;
  catalogEndMs: number | null;
  catalogServerMs: number | null;
  quoteStartMs: number | null;
  quoteEndMs: number | null;
  /** The quote request's own time (start → end), what the backend spent on it, and the upstream part. */
  quoteRequestMs: number | null;
  quoteServerMs: number | null;
  quoteUpstreamMs: number | null;
  /** From the later of the two responses to the quote committed, and to the next frame. */
  responsesToQuoteMs: number | null;
  responsesToPaintMs: number | null;
  /** The element's updates before the first quote: how many, their summed time, the one showing the quote. */
  updates: number | null;
  updatesTotalMs: number | null;
  quoteUpdateMs: number | null;
  longestUpdateMs: number | null;
  laterUpdateMs: number | null;
  longTasks: number | null;
  longTasksTotalMs: number | null;
}

export interface SeriesSummary {
  loads: number;
  failed: number;
  ttfqMedianMs: number;
  paintedMedianMs: number;
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
  breakdown: Breakdown;
}

export interface TtfqResult {
  browser: string;
  cold: SeriesSummary;
  warm: SeriesSummary;
  emulated: { latencyMs: number; cold: SeriesSummary; warm: SeriesSummary };
  samples: { cold: Load[]; warm: Load[]; emulatedCold: Load[]; emulatedWarm: Load[] };
}

export interface TtfqOptions {
  /** Loads per series (≥ 20 for the report). */
  loads?: number;
}

async function measureLoad(
  context: BrowserContext,
  pageUrl: string,
  amount: string,
  latencyMs = 0,
): Promise<Load> {
  const page = await context.newPage();
  // tsx (esbuild keepNames) wraps named inner functions in `__name(…)`; the page has no such helper.
  await page.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  // Before the page's own scripts: when the loader's chunks have made the element (from navigation start).
  await page.addInitScript({
    content: "customElements.whenDefined('crypto-checkout').then(() => performance.mark('bench:defined'));",
  });
  try {
    if (latencyMs) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: latencyMs,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
    }
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText}`));
    await page.goto(pageUrl, { waitUntil: 'load' });
    await page
      .waitForFunction(() => customElements.get('crypto-checkout') !== undefined, undefined, {
        timeout: 10_000,
      })
      .catch((error: Error) => {
        throw new Error(`the element was never defined (${failed.join(', ') || error.message})`);
      });
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

        const bundle = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find(
          (entry) => entry.name.includes('/widget/crypto-checkout.js'),
        );
        const [defined] = performance.getEntriesByName('bench:defined');
        const [before] = performance.getEntriesByName('bench:bundle-before');
        const [after] = performance.getEntriesByName('bench:bundle-after');
        const bundleFetchMs = bundle ? bundle.responseEnd - bundle.startTime : Number.NaN;
        const bundleEvalMs =
          bundle && before && after
            ? after.startTime - Math.max(before.startTime, bundle.responseEnd)
            : Number.NaN;

        const el = document.createElement('crypto-checkout') as unknown as HTMLElement & {
          updateComplete?: Promise<unknown>;
          performUpdate?: () => void;
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
        let start = 0;
        // Every update of this element, timed: willUpdate, render, commit and updated (tasks start there).
        const updates: { start: number; end: number }[] = [];
        const performUpdate = Object.getPrototypeOf(el).performUpdate as () => void;
        el.performUpdate = function (this: typeof el) {
          const began = performance.now();
          try {
            return performUpdate.call(this);
          } finally {
            updates.push({ start: began - start, end: performance.now() - start });
          }
        };
        const longTasks: { start: number; duration: number }[] = [];
        const observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries())
            longTasks.push({ start: entry.startTime - start, duration: entry.duration });
        });
        try {
          observer.observe({ type: 'longtask' });
        } catch {
          // no long task timing in this browser
        }
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
        start = performance.now();
        document.getElementById('root')?.append(el);
        Promise.resolve(el.updateComplete).then(() => {
          firstRenderMs = performance.now() - start;
        });
        const { at, error } = await outcome;
        performance.mark('bench:first-quote');
        // The frame that shows it: rAF runs before the paint, the task after it runs once the frame is out.
        const painted = await new Promise<number>((resolve) =>
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)),
        );
        observer.disconnect();
        // Once the quote shows, an update changes at most its age: what the element costs each second after.
        const later: number[] = [];
        for (let i = 0; i < 10; i++) {
          const began = performance.now();
          (el as unknown as { requestUpdate(): void }).requestUpdate();
          await el.updateComplete;
          later.push(performance.now() - began);
        }
        const quote = el.shadowRoot?.querySelector('[part="quote"]')?.textContent ?? '';
        const timing = (entry: PerformanceResourceTiming, name: string) =>
          entry.serverTiming?.find((t) => t.name === name)?.duration;
        const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((entry) => entry.startTime >= start && entry.startTime <= at)
          .map((entry) => {
            const serverMs = timing(entry, 'app');
            const upstreamMs = timing(entry, 'upstream');
            return {
              url: entry.name.replace(location.origin, ''),
              initiator: entry.initiatorType,
              start: entry.startTime - start,
              end: entry.responseEnd - start,
              ...(serverMs === undefined ? {} : { serverMs }),
              ...(upstreamMs === undefined ? {} : { upstreamMs }),
              cached: entry.transferSize === 0,
            };
          });
        return {
          amount,
          ttfqMs: at - start,
          paintedMs: painted - start,
          firstRenderMs,
          fetchRttMs: health[1] as number,
          catalogFetchMs,
          bundleFetchMs,
          bundleEvalMs,
          definedMs: defined ? defined.startTime : Number.NaN,
          updates: updates.filter((update) => update.start <= at - start),
          laterUpdatesMs: later,
          longTasks: longTasks.filter((task) => task.start <= at - start),
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
  const parts = ok.map((load) => ({
    load,
    catalog: find(load, '/api/catalog'),
    quote: find(load, '/api/quotes/'),
  }));
  const pairs = parts.filter((pair) => pair.quote);
  const withCatalog = pairs.filter((pair) => pair.catalog);
  const typical = ok[Math.floor(ok.length / 2)];
  const nullable = (values: (number | undefined)[]) => {
    const known = values.filter((value): value is number => value !== undefined && Number.isFinite(value));
    return known.length ? round(median(known)) : null;
  };
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const lastResponse = (pair: (typeof parts)[number]) =>
    Math.max(pair.catalog?.end ?? 0, pair.quote?.end ?? 0);
  const quoteOf = (pair: (typeof pairs)[number]) => pair.quote as Resource;
  const catalogOf = (pair: (typeof pairs)[number]) => pair.catalog as Resource;
  return {
    loads: loads.length,
    failed: loads.length - ok.length,
    ttfqMedianMs: round(median(ok.map((load) => load.ttfqMs))),
    paintedMedianMs: round(median(ok.map((load) => load.paintedMs))),
    fetchRttMedianMs: round(median(ok.map((load) => load.fetchRttMs))),
    cachedCatalogFetchMedianMs: round(median(ok.map((load) => load.catalogFetchMs))),
    ttfqInRoundTrips: round(median(ok.map((load) => load.ttfqMs / load.fetchRttMs))),
    firstRenderMedianMs: round(median(ok.map((load) => load.firstRenderMs))),
    requestsBeforeFirstQuote: median(ok.map((load) => load.resources.length)),
    requestsBeforeFirstQuoteList: typical
      ? typical.resources.map((resource) => `${resource.initiator} ${resource.url}`)
      : [],
    catalogAndQuoteOverlap: withCatalog.length
      ? withCatalog.every((pair) => quoteOf(pair).start < catalogOf(pair).end)
      : null,
    quoteStartAfterCatalogEndMs: nullable(
      withCatalog.map((pair) => quoteOf(pair).start - catalogOf(pair).end),
    ),
    catalogMs: nullable(withCatalog.map((pair) => catalogOf(pair).end - catalogOf(pair).start)),
    quoteRequestMs: nullable(pairs.map((pair) => quoteOf(pair).end - quoteOf(pair).start)),
    quoteStartMs: nullable(pairs.map((pair) => quoteOf(pair).start)),
    breakdown: {
      bundleFetchMs: nullable(ok.map((load) => load.bundleFetchMs)),
      bundleEvalMs: nullable(ok.map((load) => load.bundleEvalMs)),
      definedMs: nullable(ok.map((load) => load.definedMs)),
      firstRenderMs: nullable(ok.map((load) => load.firstRenderMs)),
      catalogStartMs: nullable(parts.map((pair) => pair.catalog?.start)),
      catalogEndMs: nullable(parts.map((pair) => pair.catalog?.end)),
      catalogServerMs: nullable(parts.map((pair) => pair.catalog?.serverMs)),
      quoteStartMs: nullable(parts.map((pair) => pair.quote?.start)),
      quoteEndMs: nullable(parts.map((pair) => pair.quote?.end)),
      quoteRequestMs: nullable(pairs.map((pair) => quoteOf(pair).end - quoteOf(pair).start)),
      quoteServerMs: nullable(parts.map((pair) => pair.quote?.serverMs)),
      quoteUpstreamMs: nullable(parts.map((pair) => pair.quote?.upstreamMs)),
      responsesToQuoteMs: nullable(parts.map((pair) => pair.load.ttfqMs - lastResponse(pair))),
      responsesToPaintMs: nullable(parts.map((pair) => pair.load.paintedMs - lastResponse(pair))),
      updates: nullable(ok.map((load) => load.updates.length)),
      updatesTotalMs: nullable(ok.map((load) => sum(load.updates.map((u) => u.end - u.start)))),
      quoteUpdateMs: nullable(
        ok.map((load) => {
          const last = load.updates.at(-1);
          return last ? last.end - last.start : undefined;
        }),
      ),
      longestUpdateMs: nullable(ok.map((load) => Math.max(0, ...load.updates.map((u) => u.end - u.start)))),
      laterUpdateMs: nullable(ok.map((load) => median(load.laterUpdatesMs))),
      longTasks: nullable(ok.map((load) => load.longTasks.length)),
      longTasksTotalMs: nullable(ok.map((load) => sum(load.longTasks.map((task) => task.duration)))),
    },
  };
}

/** A series: `loads` pages, each in a new context (cold) or all in one (warm), amounts from `firstAmount`. */
async function series(
  browser: Browser,
  pageUrl: string,
  kind: 'cold' | 'warm',
  loads: number,
  firstAmount: number,
  latencyMs = 0,
): Promise<Load[]> {
  const out: Load[] = [];
  const shared = kind === 'warm' ? await browser.newContext() : undefined;
  for (let i = 0; i < loads; i++) {
    const context = shared ?? (await browser.newContext());
    out.push(await measureLoad(context, pageUrl, String(firstAmount + i), latencyMs));
    if (!shared) await context.close();
  }
  await shared?.close();
  return out;
}

export async function measureTtfq(backendUrl: string, options: TtfqOptions = {}): Promise<TtfqResult> {
  const loads = options.loads ?? 20;
  const executablePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  const browser: Browser = await chromium.launch({ executablePath, headless: true, args: chromiumArgs });
  const pageUrl = `${backendUrl}/bench/page`;
  try {
    // Three discarded loads warm the backend and the sandbox (catalog caches, JIT) and the browser.
    await series(browser, pageUrl, 'cold', 3, 90);

    const cold = await series(browser, pageUrl, 'cold', loads, 100);
    const warm = await series(browser, pageUrl, 'warm', loads, 200);
    const emulatedCold = await series(browser, pageUrl, 'cold', loads, 300, EMULATED_LATENCY_MS);
    const emulatedWarm = await series(browser, pageUrl, 'warm', loads, 400, EMULATED_LATENCY_MS);
    return {
      browser: `Chromium ${browser.version()}`,
      cold: summarise(cold),
      warm: summarise(warm),
      emulated: {
        latencyMs: EMULATED_LATENCY_MS,
        cold: summarise(emulatedCold),
        warm: summarise(emulatedWarm),
      },
      samples: { cold, warm, emulatedCold, emulatedWarm },
    };
  } finally {
    await browser.close();
  }
}
