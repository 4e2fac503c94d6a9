/** Renders bench/results.md from the figures of one run. */
import type { Combo, LoadRun } from './load.ts';
import type { OverheadResult } from './overhead.ts';
import type { SeriesSummary } from './ttfq.ts';
import type { Sizes, WeightResult } from './weight.ts';

export interface Results {
  meta: {
    date: string;
    command: string;
    commit: string;
    uncommittedChanges: number;
    node: string;
    cpu: string;
    memoryGb: number;
    loadAverageAtStart: number[];
    loadAverageAtEnd: number[];
    widgetBuild: { ok: boolean; output: string[] };
    durationS: number;
  };
  weight: WeightResult;
  ttfq: { browser: string; cold: SeriesSummary; warm: SeriesSummary };
  load: {
    settings: {
      rate: number;
      durationS: number;
      connections: number;
      combinations: number;
      amounts: string;
      backendRateLimitPerMinute: number;
      backendAccessLog: string;
      backendStore: string;
      upstreamBudgetPerSecond: number | undefined;
      sandboxRateLimitPerSecond: number;
    };
    backend: LoadRun;
    budget: {
      perSecond: number | undefined;
      granted: number;
      refused: number;
      waited: number;
      maxInWindow: number | undefined;
      throttledByUpstream: number;
    };
    backendCpu: { seconds: number; percentOfOneCore: number };
    passthrough: LoadRun;
  };
  overhead: OverheadResult;
  memory: {
    rssAtStartMb: number | null;
    rssBeforeLoadMb: number | null;
    peakRssDuringLoadMb: number | null;
    peakRssSinceStartMb: number | null;
    sampledPeakRssMb: number;
    rssAfterLoadMb: number | null;
    peakResetWorked: boolean;
  };
  combos: Combo[];
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const yes = (met: boolean) => (met ? '**met**' : '**not met**');
const ms = (value: number | null) => (value === null || !Number.isFinite(value) ? '–' : `${value} ms`);
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

function sizeRow(name: string, sizes: Sizes, floor: Sizes): string {
  return row([
    name,
    kB(sizes.raw),
    kB(sizes.gzip),
    kB(sizes.brotli),
    `${(sizes.gzip / floor.gzip).toFixed(2)}×`,
    `+${kB(sizes.gzip - floor.gzip)}`,
  ]);
}

function non2xx(run: LoadRun): string {
  const entries = Object.entries(run.otherNon2xx);
  return entries.length ? entries.map(([key, count]) => `${count} × ${key}`).join(', ') : '0';
}

export function renderMarkdown(r: Results): string {
  const w = r.weight;
  const { cold, warm } = r.ttfq;
  const b = r.load.backend;
  const p = r.load.passthrough;
  const o = r.overhead;
  const budget = r.load.settings.upstreamBudgetPerSecond ?? 90;
  const everyoneAnswered =
    b.socketErrors === 0 && b.timeouts === 0 && Object.keys(b.otherNon2xx).length === 0;
  const lines = [
    '# Benchmarks',
    '',
    `\`${r.meta.command}\` on ${r.meta.date} — commit ${r.meta.commit} (+${r.meta.uncommittedChanges} uncommitted ` +
      `files), Node ${r.meta.node}, ${r.meta.cpu}, ${r.meta.memoryGb} GB; run took ${r.meta.durationS} s, ` +
      `load average (1/5/15 min) at the start ${r.meta.loadAverageAtStart.join(' / ')}, at the end ` +
      `${r.meta.loadAverageAtEnd.join(' / ')}.`,
    r.meta.widgetBuild.ok
      ? 'The widget was rebuilt first (`npm run build -w packages/widget`).'
      : '**The widget build failed; the sizes and the page use the dist that was already there.**',
    '',
    'The machine is small and noisy: read the ratios (each figure beside a reference measured in the same run), ' +
      'not the absolute times. No test asserts any of these.',
    '',
    '## 1. Weight',
    '',
    'gzip level 9, brotli quality 11. The floor is `bench/fixtures/trivial-element.ts` (Lit + one element with a ' +
      'style, two properties and a click handler) bundled in this run with Vite exactly like the script-tag bundle ' +
      '(IIFE, minified, Lit inside).',
    '',
    row(['what', 'minified', 'gzip', 'brotli', 'gzip vs floor', 'above floor']),
    row(['---', '---:', '---:', '---:', '---:', '---:']),
    sizeRow('script-tag bundle `dist/crypto-checkout.js`', w.scriptTag, w.floor),
    sizeRow(
      `npm entry as published (${w.npmEntryAsShipped.files.length} files, unminified, each compressed)`,
      w.npmEntryAsShipped,
      w.floor,
    ),
    sizeRow(
      'npm entry bundled by a shop (Vite, minified), lit external',
      w.npmEntryBundledLitExternal,
      w.floor,
    ),
    sizeRow('npm entry bundled by a shop, lit bundled (ES module)', w.npmEntryBundledWithLit, w.floorEs),
    sizeRow('**floor**: trivial Lit element, IIFE', w.floor, w.floor),
    sizeRow('floor as an ES module (reference for the row "lit bundled")', w.floorEs, w.floorEs),
    sizeRow(
      'check: widget `src/define.ts` rebuilt by the bench the same way',
      w.scriptTagRebuiltHere,
      w.floor,
    ),
    '',
    `Goal: the whole widget within ${kB(w.goalGzipBytes)} gzip — script-tag bundle ${kB(w.scriptTag.gzip)}: ` +
      `${yes(w.scriptTag.gzip <= w.goalGzipBytes)}. The widget's own code (bundle − floor) is ` +
      `${kB(w.scriptTag.gzip - w.floor.gzip)} gzip.`,
    '',
    '## 2. Time to first quote (Chromium)',
    '',
    `${r.ttfq.browser}, headless. \`/bench/page\` is served by the backend and loads the script-tag bundle; each ` +
      'load appends `<crypto-checkout mode="buy" amount="…" country="DE" fiat="EUR" crypto="BTC" ' +
      'payment-method="creditcard">` (amount 100, 101, … so no quote comes from the backend\'s cache) and times ' +
      "from right before the append to the `checkout-quote` event plus the element's update (the quote is in the " +
      "shadow DOM). Reference: a bare `fetch('/healthz')` round trip in the same page just before (median of 3). " +
      `Medians of ${cold.loads} loads each; cold = a new browser context per load (empty HTTP cache), warm = one ` +
      'context, a new page per load (the catalog can come from the HTTP cache, `max-age=60`).',
    '',
    row(['', 'cold (first visit)', 'warm (returning)']),
    row(['---', '---:', '---:']),
    row(['time to first quote', ms(cold.ttfqMedianMs), ms(warm.ttfqMedianMs)]),
    row(['bare fetch round trip (reference)', ms(cold.fetchRttMedianMs), ms(warm.fetchRttMedianMs)]),
    row([
      '**time to first quote in round trips**',
      `**${cold.ttfqInRoundTrips}**`,
      `**${warm.ttfqInRoundTrips}**`,
    ]),
    row([
      'cached `/api/catalog` fetch from the page',
      ms(cold.cachedCatalogFetchMedianMs),
      ms(warm.cachedCatalogFetchMedianMs),
    ]),
    row(['element first rendered', ms(cold.firstRenderMedianMs), ms(warm.firstRenderMedianMs)]),
    row(['catalog request (start → end)', ms(cold.catalogMs), ms(warm.catalogMs)]),
    row(['quote request starts at', ms(cold.quoteStartMs), ms(warm.quoteStartMs)]),
    row([
      'quote request starts after the catalog ended by',
      ms(cold.quoteStartAfterCatalogEndMs),
      ms(warm.quoteStartAfterCatalogEndMs),
    ]),
    row(['quote request (start → end)', ms(cold.quoteRequestMs), ms(warm.quoteRequestMs)]),
    row([
      'requests by the element before the first quote',
      cold.requestsBeforeFirstQuote,
      warm.requestsBeforeFirstQuote,
    ]),
    row([
      'catalog and first quote in flight together',
      String(cold.catalogAndQuoteOverlap),
      String(warm.catalogAndQuoteOverlap),
    ]),
    row(['failed loads', cold.failed, warm.failed]),
    '',
    `Requests before the first quote (a typical cold load): ${cold.requestsBeforeFirstQuoteList.map((entry) => `\`${entry}\``).join(', ')}.`,
    '',
    `Goal: ≤ 1.5 round trips — ${yes(cold.ttfqInRoundTrips <= 1.5)} (cold ${cold.ttfqInRoundTrips}, warm ` +
      `${warm.ttfqInRoundTrips}); catalog and first quote in flight together — ` +
      `${yes(cold.catalogAndQuoteOverlap === true)}.`,
    '',
    '## 3. The upstream budget under load',
    '',
    `autocannon (programmatic) in the bench process; backend, sandbox and proxy each in a process of their own. ` +
      `POST /api/quotes/buy at ${r.load.settings.rate} requests/s for ${r.load.settings.durationS} s over ` +
      `${r.load.settings.connections} connections, ${r.load.settings.combinations} (method, country, fiat, ` +
      `crypto) combinations, amounts: ${r.load.settings.amounts}. The backend's per-client rate limit is raised ` +
      `for the bench (\`RATE_LIMIT_PER_MINUTE=${r.load.settings.backendRateLimitPerMinute}\`: every shopper is ` +
      `127.0.0.1), access log off, memory store; upstream budget ${budget}/s; the sandbox throttles above ` +
      `${r.load.settings.sandboxRateLimitPerSecond}/s (sliding window). Upstream calls and 429s are counted at ` +
      'the sandbox. The pass-through proxy (`bench/passthrough-proxy.ts`) gets the same request stream.',
    '',
    row(['', 'backend', 'pass-through proxy (reference)']),
    row(['---', '---:', '---:']),
    row(['requests sent / answered', `${b.sent} / ${b.answered}`, `${p.sent} / ${p.answered}`]),
    row(['answered per second', b.achievedRps, p.achievedRps]),
    row(['2xx (a quote)', b.ok2xx, p.ok2xx]),
    row(['503 UPSTREAM_BUSY', b.upstreamBusy503, p.upstreamBusy503]),
    row(['other non-2xx', non2xx(b), non2xx(p)]),
    row([
      'socket errors / timeouts',
      `${b.socketErrors} / ${b.timeouts}`,
      `${p.socketErrors} / ${p.timeouts}`,
    ]),
    row([
      'latency p50 / p95 / p99 (all answers)',
      `${b.latencyMs.p50} / ${b.latencyMs.p95} / ${b.latencyMs.p99} ms`,
      `${p.latencyMs.p50} / ${p.latencyMs.p95} / ${p.latencyMs.p99} ms`,
    ]),
    row([
      'latency p50 / p95 / p99 (2xx)',
      `${b.latencyOkMs.p50} / ${b.latencyOkMs.p95} / ${b.latencyOkMs.p99} ms`,
      `${p.latencyOkMs.p50} / ${p.latencyOkMs.p95} / ${p.latencyOkMs.p99} ms`,
    ]),
    row([
      'latency p50 / p95 / p99 (503 busy)',
      b.latencyBusyMs ? `${b.latencyBusyMs.p50} / ${b.latencyBusyMs.p95} / ${b.latencyBusyMs.p99} ms` : '–',
      p.latencyBusyMs ? `${p.latencyBusyMs.p50} / ${p.latencyBusyMs.p95} / ${p.latencyBusyMs.p99} ms` : '–',
    ]),
    row([
      'upstream calls (total, mean/s)',
      `${b.upstream.calls}, ${b.upstream.meanPerSecond}/s`,
      `${p.upstream.calls}, ${p.upstream.meanPerSecond}/s`,
    ]),
    row([
      '**upstream calls, busiest sliding second**',
      `**${b.upstream.maxPerSecond}**`,
      `**${p.upstream.maxPerSecond}**`,
    ]),
    row([
      'upstream calls, busiest calendar second',
      b.upstream.maxPerSecondBucket,
      p.upstream.maxPerSecondBucket,
    ]),
    row([
      'upstream calls per calendar second',
      b.upstream.perSecond.join(' '),
      p.upstream.perSecond.join(' '),
    ]),
    row(['**upstream 429s**', `**${b.upstream.throttled429}**`, `**${p.upstream.throttled429}**`]),
    '',
    `Backend budget counters during the load: ${r.load.budget.granted} calls granted, ${r.load.budget.waited} ` +
      `waited for a token, ${r.load.budget.refused} refused (UPSTREAM_BUSY), most tokens held at once ` +
      `(calls in flight or finished within the last window) ${r.load.budget.maxInWindow}, upstream 429s seen ${r.load.budget.throttledByUpstream}. Backend CPU during ` +
      `the load: ${r.load.backendCpu.seconds} s (${r.load.backendCpu.percentOfOneCore} % of one core).`,
    '',
    `Goals: never more than the budget (${budget}/s) upstream — ${yes(b.upstream.maxPerSecond <= budget)} ` +
      `(busiest sliding second ${b.upstream.maxPerSecond}); no upstream 429 — ${yes(b.upstream.throttled429 === 0)} ` +
      `(${b.upstream.throttled429}); every shopper answered with a quote or a clear UPSTREAM_BUSY — ` +
      `${yes(everyoneAnswered)}; ${r.load.settings.rate}/s offered — answered ${b.achievedRps}/s.`,
    '',
    '## 4. Overhead',
    '',
    `Throughput, autocannon ${o.throughput.connections} connections × ${o.throughput.durationS} s each, no rate ` +
      'cap, each server in its own `node --import tsx` process on `@hono/node-server`:',
    '',
    row(['', 'requests/s', 'p50 latency', 'vs hello']),
    row(['---', '---:', '---:', '---:']),
    row([
      'bare Hono "hello" (reference)',
      o.throughput.helloRps,
      `${o.throughput.helloLatencyP50Ms} ms`,
      '1',
    ]),
    row([
      'backend `GET /healthz` (outer middleware only)',
      o.throughput.healthzRps,
      '',
      (o.throughput.healthzRps / o.throughput.helloRps).toFixed(3),
    ]),
    row([
      `backend \`GET /api/catalog?country=DE\`, cached (${kB(o.throughput.catalogBytes)} JSON)`,
      o.throughput.catalogRps,
      `${o.throughput.catalogLatencyP50Ms} ms`,
      String(o.throughput.ratio),
    ]),
    '',
    `The cached catalog serves 1/${o.throughput.helloOverCatalog} of a bare Hono app's requests per second.`,
    '',
    `Quote latency, ${o.quoteLatency.n} sequential requests each, interleaved, paced under the budget ` +
      `(${o.quoteLatency.combo.paymentMethod}, ${o.quoteLatency.combo.country}, ${o.quoteLatency.combo.fiat} → ` +
      `${o.quoteLatency.combo.crypto}), from the bench process:`,
    '',
    row(['', 'median', 'p90', 'vs direct']),
    row(['---', '---:', '---:', '---:']),
    row([
      'sandbox pricing endpoint, direct (reference)',
      ms(o.quoteLatency.directMedianMs),
      ms(o.quoteLatency.directP90Ms),
      '1',
    ]),
    row([
      'through the backend, a new amount each time',
      ms(o.quoteLatency.proxiedMedianMs),
      ms(o.quoteLatency.proxiedP90Ms),
      `${o.quoteLatency.proxiedOverDirect}×`,
    ]),
    row([
      'through the backend, cached quote',
      ms(o.quoteLatency.cachedMedianMs),
      ms(o.quoteLatency.cachedP90Ms),
      `${o.quoteLatency.cachedOverDirect}×`,
    ]),
    '',
    `A proxied quote adds ${o.quoteLatency.addedMs} ms (median) over calling the upstream directly` +
      (o.quoteLatency.failures ? `; ${o.quoteLatency.failures} requests failed.` : '.'),
    '',
    '## 5. Memory',
    '',
    row(['backend process (`/proc/<pid>/status`)', 'MB']),
    row(['---', '---:']),
    row(['RSS at start', r.memory.rssAtStartMb ?? '–']),
    row(['RSS before the load (after the page loads and overhead runs)', r.memory.rssBeforeLoadMb ?? '–']),
    row([
      r.memory.peakResetWorked
        ? '**peak RSS during the load** (VmHWM, reset before the load)'
        : '**peak RSS** (VmHWM since start)',
      `**${r.memory.peakRssDuringLoadMb ?? r.memory.peakRssSinceStartMb ?? '–'}**`,
    ]),
    row(['highest RSS sampled every 250 ms during the load', r.memory.sampledPeakRssMb]),
    row(['RSS right after the load', r.memory.rssAfterLoadMb ?? '–']),
    '',
  ];
  return `${lines.join('\n')}\n`;
}
