/** Renders bench/results.md from the figures of one run. */
import type { Combo, LoadRun } from './load.ts';
import type { OverheadResult } from './overhead.ts';
import type { Breakdown, SeriesSummary } from './ttfq.ts';
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
  ttfq: {
    browser: string;
    cold: SeriesSummary;
    warm: SeriesSummary;
    emulated: { latencyMs: number; cold: SeriesSummary; warm: SeriesSummary };
  };
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

/** A row of sizes; against the floor when `floor` is given (a whole download), else a part of one. */
function sizeRow(name: string, sizes: Sizes, floor?: Sizes): string {
  return row([
    name,
    kB(sizes.raw),
    kB(sizes.gzip),
    kB(sizes.brotli),
    floor ? `${(sizes.gzip / floor.gzip).toFixed(2)}×` : '',
    floor ? `+${kB(sizes.gzip - floor.gzip)}` : '',
  ]);
}

function non2xx(run: LoadRun): string {
  const entries = Object.entries(run.otherNon2xx);
  return entries.length ? entries.map(([key, count]) => `${count} × ${key}`).join(', ') : '0';
}

export function weightSection(w: WeightResult): string[] {
  const modes = Object.keys(w.modes) as (keyof WeightResult['modes'])[];
  const first = (mode: string) => (mode === 'pay' ? 'product' : 'quote');
  const met = modes.filter((mode) => w.modes[mode].initial.gzip <= w.goalGzipBytes);
  return [
    '## 1. Weight',
    '',
    'gzip level 9, brotli quality 11, each file compressed on its own (as the backend sends it) and summed. ' +
      'The floor is `bench/fixtures/trivial-element.ts` (Lit + one element with a style, two properties and a ' +
      'click handler) bundled in this run with Vite (IIFE, minified, Lit inside; as an ES module for the rows ' +
      "of a shop's own bundle).",
    '',
    "The script tag loads a loader, which loads the element's chunk and the view of each mode on the page " +
      '(`packages/widget/scripts/weight.mjs` reads which files from `dist/`). Initial = what a page of that mode ' +
      'downloads before its first quote or product can show (English; another language adds its chunk).',
    '',
    row(['what', 'minified', 'gzip', 'brotli', 'gzip vs floor', 'above floor']),
    row(['---', '---:', '---:', '---:', '---:', '---:']),
    ...modes.map((mode) =>
      sizeRow(
        `**${mode}**: initial (before the first ${first(mode)}), script tag`,
        w.modes[mode].initial,
        w.floor,
      ),
    ),
    sizeRow('… of which the loader `crypto-checkout.js`', w.loader),
    sizeRow(`… of which the element (${w.element.files.join(', ')})`, w.element),
    ...modes.map((mode) =>
      sizeRow(
        `… of which the lazy ${mode} view (${w.modes[mode].view.files.join(', ')})`,
        w.modes[mode].view,
      ),
    ),
    ...Object.entries(w.languages).map(([lang, sizes]) =>
      sizeRow(`lazy language \`${lang}\` (only on a page in it)`, sizes),
    ),
    ...modes.map((mode) =>
      sizeRow(
        `${mode}: initial in a shop's own bundle of the npm entry (Vite, lit in)`,
        w.modes[mode].shopInitial,
        w.floorEs,
      ),
    ),
    sizeRow("… of which the shop bundle's entry chunks (no view)", w.shopEntry),
    ...modes.map((mode) => sizeRow(`… of which the lazy ${mode} view`, w.modes[mode].shopView)),
    sizeRow(
      `npm entry as published (${w.npmEntryAsShipped.files.length} files, unminified, each compressed)`,
      w.npmEntryAsShipped,
      w.floorEs,
    ),
    sizeRow('**floor**: trivial Lit element, IIFE', w.floor, w.floor),
    sizeRow('floor as an ES module', w.floorEs, w.floorEs),
    '',
    `Goal: at most ${kB(w.goalGzipBytes)} gzip before the first quote or product, for each mode: ` +
      (met.length === modes.length
        ? 'met for every mode.'
        : `${met.length ? `met for ${met.join(', ')}; ` : ''}` +
          `**not met** for ${modes.filter((m) => !met.includes(m)).join(', ')} ` +
          `(${modes.map((m) => `${m} ${kB(w.modes[m].initial.gzip)}`).join(', ')}).`) +
      " A shop's bundle of the npm entry carries no view in its entry chunks: each mode's view is a chunk of " +
      'its own, loaded by a page of that mode only.',
    '',
  ];
}

/** Section 2: loopback and emulated-latency series side by side, then the breakdown of the critical path. */
export function ttfqSection(t: Results['ttfq']): string[] {
  const { cold, warm } = t;
  const e = t.emulated;
  const all = [cold, warm, e.cold, e.warm];
  const line = (name: string, value: (s: SeriesSummary) => string | number) => row([name, ...all.map(value)]);
  const b = (key: keyof Breakdown) => (s: SeriesSummary) => ms(s.breakdown?.[key] ?? null);
  const goal = (s: SeriesSummary) => s.ttfqInRoundTrips <= 1.5;
  return [
    '## 2. Time to first quote (Chromium)',
    '',
    `${t.browser}, headless. \`/bench/page\` is served by the backend and loads the script-tag bundle; each ` +
      'load appends `<crypto-checkout mode="buy" amount="…" country="DE" fiat="EUR" crypto="BTC" ' +
      'payment-method="creditcard">` (a new amount each load, so no quote comes from the backend\'s cache) and ' +
      "times from right before the append to the `checkout-quote` event plus the element's update (the quote " +
      "is in the shadow DOM). Reference: a bare `fetch('/healthz')` round trip in the same page just before " +
      `(median of 3). Medians of ${cold.loads} loads per series; cold = a new browser context per load (empty ` +
      'HTTP cache), warm = one context, a new page per load (the catalog can come from the HTTP cache, ' +
      `\`max-age=60\`). Loopback as is, and with Chromium's network emulation adding ${e.latencyMs} ms to every ` +
      'request (`Network.emulateNetworkConditions`, through a CDP session), the bare fetch timed under the same ' +
      'emulation: a round trip then costs what it does on a real connection.',
    '',
    row(['', 'loopback cold', 'loopback warm', `+${e.latencyMs} ms cold`, `+${e.latencyMs} ms warm`]),
    row(['---', '---:', '---:', '---:', '---:']),
    line('time to first quote', (s) => ms(s.ttfqMedianMs)),
    line('bare fetch round trip (reference)', (s) => ms(s.fetchRttMedianMs)),
    line('**time to first quote in round trips**', (s) => `**${s.ttfqInRoundTrips}**`),
    line('quote on screen (next frame)', (s) => ms(s.paintedMedianMs ?? null)),
    line('cached `/api/catalog` fetch from the page', (s) => ms(s.cachedCatalogFetchMedianMs)),
    line('requests by the element before the first quote', (s) => s.requestsBeforeFirstQuote),
    line('catalog and first quote in flight together', (s) => String(s.catalogAndQuoteOverlap)),
    line('quote request starts after the catalog ended by', (s) => ms(s.quoteStartAfterCatalogEndMs)),
    line('failed loads', (s) => s.failed),
    '',
    `Requests before the first quote (a typical cold load): ${cold.requestsBeforeFirstQuoteList.map((entry) => `\`${entry}\``).join(', ')}.`,
    '',
    '### Where the time goes',
    '',
    'Measured in the page for every load (medians; ms from the append unless said otherwise): the bundle ' +
      'before the clock starts (resource timing, and marks around the script tag for its evaluation); the ' +
      "element's first render (its skeleton); each request's start and end (resource timing) and the " +
      "backend's own time for it, upstream included (`Server-Timing` added by `bench/server.ts`); every update " +
      'of the element up to the quote (its `performUpdate`, timed); long tasks (`PerformanceObserver`).',
    '',
    row(['', 'loopback cold', 'loopback warm', `+${e.latencyMs} ms cold`, `+${e.latencyMs} ms warm`]),
    row(['---', '---:', '---:', '---:', '---:']),
    line('bundle fetch (before the clock)', b('bundleFetchMs')),
    line('bundle evaluation (before the clock)', b('bundleEvalMs')),
    line('element first rendered (skeleton)', b('firstRenderMs')),
    line('catalog request starts at', b('catalogStartMs')),
    line('catalog response ends at', b('catalogEndMs')),
    line('… backend time for the catalog', b('catalogServerMs')),
    line('quote request starts at', b('quoteStartMs')),
    line('quote response ends at', b('quoteEndMs')),
    line('quote request (start → end)', b('quoteRequestMs')),
    line('… backend time for the quote', b('quoteServerMs')),
    line('… of which upstream (sandbox pricing call)', b('quoteUpstreamMs')),
    line(
      '**both responses in → quote committed**',
      (s) => `**${ms(s.breakdown?.responsesToQuoteMs ?? null)}**`,
    ),
    line('both responses in → quote on screen (next frame)', b('responsesToPaintMs')),
    line('element updates up to the quote', (s) => s.breakdown?.updates ?? '–'),
    line('… their time, summed', b('updatesTotalMs')),
    line('… the update that shows the quote', b('quoteUpdateMs')),
    line('long tasks (≥ 50 ms) up to the quote', (s) => s.breakdown?.longTasks ?? '–'),
    '',
    `Goal: ≤ 1.5 round trips — loopback ${yes(goal(cold))} (cold ${cold.ttfqInRoundTrips}, warm ` +
      `${warm.ttfqInRoundTrips}); at +${e.latencyMs} ms ${yes(goal(e.cold))} (cold ${e.cold.ttfqInRoundTrips}, ` +
      `warm ${e.warm.ttfqInRoundTrips}); catalog and first quote in flight together — ` +
      `${yes(cold.catalogAndQuoteOverlap === true && e.cold.catalogAndQuoteOverlap === true)}.`,
    '',
  ];
}

export function loadSection(l: Results['load']): string[] {
  const b = l.backend;
  const p = l.passthrough;
  const budget = l.settings.upstreamBudgetPerSecond ?? 90;
  const everyoneAnswered =
    b.socketErrors === 0 && b.timeouts === 0 && Object.keys(b.otherNon2xx).length === 0;
  return [
    '## 3. The upstream budget under load',
    '',
    `autocannon (programmatic) in the bench process; backend, sandbox and proxy each in a process of their own. ` +
      `POST /api/quotes/buy at ${l.settings.rate} requests/s for ${l.settings.durationS} s over ` +
      `${l.settings.connections} connections, ${l.settings.combinations} (method, country, fiat, ` +
      `crypto) combinations, amounts: ${l.settings.amounts}. The backend's per-client rate limit is raised ` +
      `for the bench (\`RATE_LIMIT_PER_MINUTE=${l.settings.backendRateLimitPerMinute}\`: every shopper is ` +
      `127.0.0.1), access log off, memory store; upstream budget ${budget}/s; the sandbox throttles above ` +
      `${l.settings.sandboxRateLimitPerSecond}/s (sliding window). Upstream calls and 429s are counted at ` +
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
    `Backend budget counters during the load: ${l.budget.granted} calls granted, ${l.budget.waited} ` +
      `waited for a token, ${l.budget.refused} refused (UPSTREAM_BUSY), most tokens held at once ` +
      `(calls in flight or finished within the last window) ${l.budget.maxInWindow}, upstream 429s seen ${l.budget.throttledByUpstream}. Backend CPU during ` +
      `the load: ${l.backendCpu.seconds} s (${l.backendCpu.percentOfOneCore} % of one core).`,
    '',
    `Goals: never more than the budget (${budget}/s) upstream — ${yes(b.upstream.maxPerSecond <= budget)} ` +
      `(busiest sliding second ${b.upstream.maxPerSecond}); no upstream 429 — ${yes(b.upstream.throttled429 === 0)} ` +
      `(${b.upstream.throttled429}); every shopper answered with a quote or a clear UPSTREAM_BUSY — ` +
      `${yes(everyoneAnswered)}; ${l.settings.rate}/s offered — answered ${b.achievedRps}/s.`,
    '',
  ];
}

export function overheadSection(o: OverheadResult): string[] {
  return [
    '## 4. Overhead',
    '',
    `Throughput, autocannon ${o.throughput.connections} connections × ${o.throughput.durationS} s each, no rate ` +
      'cap, each server in its own process on `@hono/node-server` (the backend: the built package on plain `node`; hello: `node --import tsx`):',
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
  ];
}

export function memorySection(m: Results['memory']): string[] {
  return [
    '## 5. Memory',
    '',
    row(['backend process (`/proc/<pid>/status`)', 'MB']),
    row(['---', '---:']),
    row(['RSS at start', m.rssAtStartMb ?? '–']),
    row(['RSS before the load (after the page loads and overhead runs)', m.rssBeforeLoadMb ?? '–']),
    row([
      m.peakResetWorked
        ? '**peak RSS during the load** (VmHWM, reset before the load)'
        : '**peak RSS** (VmHWM since start)',
      `**${m.peakRssDuringLoadMb ?? m.peakRssSinceStartMb ?? '–'}**`,
    ]),
    row(['highest RSS sampled every 250 ms during the load', m.sampledPeakRssMb]),
    row(['RSS right after the load', m.rssAfterLoadMb ?? '–']),
    '',
  ];
}

export function renderMarkdown(r: Results): string {
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
    ...weightSection(r.weight),
    ...ttfqSection(r.ttfq),
    ...loadSection(r.load),
    ...overheadSection(r.overhead),
    ...memorySection(r.memory),
  ];
  return `${lines.join('\n')}\n`;
}
