/** Renders bench/results.md from the figures of one run. */

import type { AccuracyResult } from './accuracy.ts';
import type { ArrivalPattern, Combo, LoadRun } from './load.ts';
import type { OverheadResult } from './overhead.ts';
import type { ProfileResult } from './profile.ts';
import type { Breakdown, SeriesSummary } from './ttfq.ts';
import type { Sizes, WeightResult } from './weight.ts';

/** When each lazy part of the script-tag bundle loads (the chunk names of packages/widget/vite.config.ts's `lazyFolders`). */
const PART_WHEN: Record<string, string> = {
  frame: 'with the main button, or when idle once the form shows',
  picker: "a picker's open list: on its first touch, or when idle",
  session: 'buy, sell: what follows Continue (the summary line, Change, the outcome), with the frame',
  order: 'pay once there is an order (pressed, or restored): its status followed, its outcome',
  status: "the status band's CSS, with the session or the order",
};

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
    backend: BackendLoad[];
    passthrough: LoadRun;
  };
  accuracy: AccuracyResult;
  profile: ProfileResult;
  /** The same profile of `/healthz` (the outer middleware only). */
  healthProfile: ProfileResult;
  /** The same profile of POST /api/quotes/buy with the load step's mix. */
  quoteProfile: ProfileResult;
  overhead: OverheadResult;
  memory: {
    rssAtStartMb: number | null;
    rssBeforeLoadMb: number | null;
    /** Peak RSS (VmHWM, reset before each run) per load rate. */
    peakRssByRate: Array<{
      rate: number;
      arrivals: ArrivalPattern;
      peakRssMb: number | null;
      sampledPeakRssMb: number;
    }>;
    rssAfterLoadMb: number | null;
    /** RSS after the loads and some seconds with nothing to do. */
    rssIdleMb: number | null;
    peakResetWorked: boolean;
    /** The 1000/s load on fresh backends: as the CLI runs, and with Node's own young generation. */
    fresh?: FreshBackendMemory[];
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
    ...Object.entries(w.parts ?? {}).map(([part, sizes]) =>
      sizeRow(
        `lazy part \`${part}\` (${PART_WHEN[part] ?? 'when reached'}; ${sizes.files.join(', ')})`,
        sizes,
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
      'before the clock starts (resource timing, and marks around the script tag for its evaluation), and ' +
      'when its chunks had made the element (`customElements.whenDefined`, from navigation start); the ' +
      "element's first render (its skeleton); each request's start and end (resource timing) and the " +
      "backend's own time for it, upstream included (`Server-Timing` added by `bench/server.ts`); every update " +
      'of the element up to the quote (its `performUpdate`, timed); long tasks (`PerformanceObserver`).',
    '',
    row(['', 'loopback cold', 'loopback warm', `+${e.latencyMs} ms cold`, `+${e.latencyMs} ms warm`]),
    row(['---', '---:', '---:', '---:', '---:']),
    line('bundle fetch (before the clock)', b('bundleFetchMs')),
    line('bundle evaluation (before the clock)', b('bundleEvalMs')),
    line('element defined, from navigation start (before the clock)', b('definedMs')),
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
    line("a later update (the quote's age, each second; median of 10 a load)", b('laterUpdateMs')),
    line('long tasks (≥ 50 ms) up to the quote', (s) => s.breakdown?.longTasks ?? '–'),
    '',
    `Goal: ≤ 1.5 round trips — loopback ${yes(goal(cold))} (cold ${cold.ttfqInRoundTrips}, warm ` +
      `${warm.ttfqInRoundTrips}); at +${e.latencyMs} ms ${yes(goal(e.cold))} (cold ${e.cold.ttfqInRoundTrips}, ` +
      `warm ${e.warm.ttfqInRoundTrips}); catalog and first quote in flight together — ` +
      `${yes(cold.catalogAndQuoteOverlap === true && e.cold.catalogAndQuoteOverlap === true)}.`,
    '',
  ];
}

/** The 1000/s load on a backend of its own, started with `flags` ('' for Node's defaults). */
export interface FreshBackendMemory {
  flags: string;
  rate: number;
  peakRssMb: number | null;
  sampledPeakRssMb: number;
  answered: number;
  ok2xx: number;
  p99Ms: number;
}

/** One load run of the backend at a rate, with its budget and CPU figures. */
export interface BackendLoad {
  rate: number;
  arrivals: ArrivalPattern;
  run: LoadRun;
  budget: {
    perSecond: number | undefined;
    granted: number;
    refused: number;
    waited: number;
    maxInWindow: number | undefined;
    throttledByUpstream: number;
  };
  cpu: { seconds: number; percentOfOneCore: number };
  /** VmHWM during this run (reset before it), or null when the reset was refused. */
  peakRssMb: number | null;
  sampledPeakRssMb: number;
}

/** How a column's shoppers arrived, when it is not the default (independently, a Poisson stream). */
const arrivalNote = (arrivals: ArrivalPattern) => (arrivals === 'burst' ? ', all at once each second' : '');

/** Requests that ended: answered, or failed on the socket or by the generator's timeout (15 s). */
const finished = (run: LoadRun) => run.answered + run.socketErrors;

const share = (part: number, whole: number) => (whole ? `${round1((part / whole) * 100)} %` : '–');
const round1 = (value: number) => Math.round(value * 10) / 10;

export function loadSection(l: Results['load']): string[] {
  const runs = l.backend;
  const p = l.passthrough;
  const budget = l.settings.upstreamBudgetPerSecond ?? 90;
  const columns = [
    ...runs.map((entry) => ({
      name: `backend, ${entry.rate}/s${arrivalNote(entry.arrivals)}`,
      run: entry.run,
    })),
    {
      name: `pass-through proxy, ${l.settings.rate}/s (reference)`,
      run: p,
    },
  ];
  const cells = (pick: (run: LoadRun) => string | number) => columns.map((column) => pick(column.run));
  const latency = (value: { p50: number; p95: number; p99: number } | null) =>
    value ? `${value.p50} / ${value.p95} / ${value.p99} ms` : '–';
  const goals = runs.map((entry) => {
    const b = entry.run;
    const everyoneAnswered =
      b.socketErrors === 0 && b.timeouts === 0 && Object.keys(b.otherNon2xx).length === 0;
    return (
      `At ${entry.rate}/s${arrivalNote(entry.arrivals)}: shoppers answered with a quote ${share(b.ok2xx, finished(b))} (goal 100 %) — ` +
      `${yes(b.ok2xx === finished(b) && b.answered > 0)}; ${b.derived} derived, ${b.priced} priced upstream, ` +
      `${b.upstreamBusy503} UPSTREAM_BUSY; p99 ${b.latencyOkMs.p99} ms` +
      (entry.rate === 1000 && entry.arrivals === 'poisson'
        ? ` (goal ≤ 100 ms) — ${yes(b.latencyOkMs.p99 <= 100)}`
        : '') +
      `; busiest upstream second ${b.upstream.maxPerSecond} (≤ ${budget}) — ${yes(b.upstream.maxPerSecond <= budget)}; ` +
      `upstream 429s ${b.upstream.throttled429} — ${yes(b.upstream.throttled429 === 0)}; every answer a quote or a ` +
      `clear error — ${yes(everyoneAnswered)}; offered ${entry.rate}/s, answered ${b.achievedRps}/s.`
    );
  });
  return [
    '## 3. Quotes under load: the quote engine and the upstream budget',
    '',
    'The load generator runs in the bench process; backend, sandbox and proxy each in a process of their own. ' +
      'Shoppers arrive independently, a Poisson stream at the rate (bench/open-loop.ts, seeded, open loop: a ' +
      'request is sent when it is due, whatever the server does, on a keep-alive connection from a pool of at most ' +
      `${l.settings.connections}), and each latency is timed from when the request was due, so a server that falls ` +
      'behind is charged for its queue. The column "all at once each second" is the same stream sent by ' +
      "autocannon's rate limiter, the way issue 11 first measured it: autocannon gives each of its connections one " +
      "request per second from a timer per connection, and the timers start together, so the whole second's " +
      'requests land at once (latency timed from sending). ' +
      `POST /api/quotes/buy at ${runs.map((entry) => `${entry.rate}/s${arrivalNote(entry.arrivals)}`).join(', ')} for ${l.settings.durationS} s, ` +
      `${l.settings.combinations} (method, country, fiat, ` +
      `crypto) combinations, amounts: ${l.settings.amounts}. The backend's per-client rate limit is raised ` +
      `for the bench (\`RATE_LIMIT_PER_MINUTE=${l.settings.backendRateLimitPerMinute}\`: every shopper is ` +
      `127.0.0.1), access log off, memory store, quote engine on (defaults); upstream budget ${budget}/s; the ` +
      `sandbox throttles above ${l.settings.sandboxRateLimitPerSecond}/s (sliding window). Upstream calls and 429s ` +
      'are counted at the sandbox. The pass-through proxy (`bench/passthrough-proxy.ts`) gets the same request ' +
      `stream as the ${l.settings.rate}/s run. Latencies are measured by the load generator, which shares the 2 ` +
      'cores with every server here (and with other work on the machine). The share answered with a quote is ' +
      'of the requests that ended (answered, or failed on the socket or after 15 s). One backend is one Node ' +
      'process: at 5000/s it uses most of its core (about 200 µs of CPU per quote here, open loop, beside the load ' +
      'generator), so any second it falls behind leaves a queue it clears slowly. Until 2026-11-25 the CLI let its ' +
      'young generation grow only after three busy seconds: those three seconds at 1 MB semi-spaces left a backlog ' +
      'that lasted the whole run (p50 1 s, p99 1.3 s), and the connections the load generator opened meanwhile ' +
      "waited in the kernel's accept queue, since libuv 1.46 (Node 20) accepts one per turn of a busy event loop " +
      '(libuv/libuv#3696): 0.5 % reached the 15 s timeout. It now grows after one busy second. More ' +
      'instances (README, "Running several instances") are the answer to more traffic: two answer the 5000/s ' +
      'stream whole (`bench/instances-results.md`).',
    '',
    row(['', ...columns.map((column) => column.name)]),
    row(['---', ...columns.map(() => '---:')]),
    row(['requests sent / answered', ...cells((r) => `${r.sent} / ${r.answered}`)]),
    row(['answered per second', ...cells((r) => r.achievedRps)]),
    row([
      '**answered with a quote (2xx)**',
      ...cells((r) => `**${r.ok2xx} (${share(r.ok2xx, finished(r))})**`),
    ]),
    row(['… derived by the quote engine', ...cells((r) => `${r.derived} (${share(r.derived, r.ok2xx)})`)]),
    row(['… priced by the upstream for that amount', ...cells((r) => r.priced)]),
    row(['**503 UPSTREAM_BUSY**', ...cells((r) => `**${r.upstreamBusy503}**`)]),
    row(['other non-2xx', ...cells((r) => non2xx(r))]),
    row(['socket errors / timeouts', ...cells((r) => `${r.socketErrors} / ${r.timeouts}`)]),
    row(['**latency p50 / p95 / p99 (2xx)**', ...cells((r) => `**${latency(r.latencyOkMs)}**`)]),
    row(['latency p50 / p95 / p99 (all answers)', ...cells((r) => latency(r.latencyMs))]),
    row([
      'upstream calls (total, mean/s)',
      ...cells((r) => `${r.upstream.calls}, ${r.upstream.meanPerSecond}/s`),
    ]),
    row(['**upstream calls, busiest sliding second**', ...cells((r) => `**${r.upstream.maxPerSecond}**`)]),
    row(['upstream calls, busiest calendar second', ...cells((r) => r.upstream.maxPerSecondBucket)]),
    row(['upstream calls per calendar second', ...cells((r) => r.upstream.perSecond.join(' '))]),
    row(['**upstream 429s**', ...cells((r) => `**${r.upstream.throttled429}**`)]),
    '',
    ...runs.map(
      (entry) =>
        `Backend at ${entry.rate}/s${arrivalNote(entry.arrivals)}: budget counters ${entry.budget.granted} calls granted, ${entry.budget.waited} ` +
        `waited for a token, ${entry.budget.refused} refused, most tokens held at once ${entry.budget.maxInWindow}, ` +
        `upstream 429s seen ${entry.budget.throttledByUpstream}; CPU ${entry.cpu.seconds} s ` +
        `(${entry.cpu.percentOfOneCore} % of one core); peak RSS ${entry.peakRssMb ?? '–'} MB.`,
    ),
    '',
    ...goals.flatMap((goal) => [goal, '']),
  ];
}

export function accuracySection(a: AccuracyResult): string[] {
  const pct = (value: number) => `${(value * 100).toPrecision(2)} %`;
  return [
    '## 4. Accuracy of derived quotes',
    '',
    `The sandbox's clock pinned at ${a.pinnedAt} (its price feed stands still); a fresh backend (MARKUP=${a.markup}) ` +
      `priced each of the ${a.combinations} combinations once upstream, then ${a.asked} other amounts (three in four ` +
      'free fiat amounts, one in four crypto amounts); each answer marked `derived` was compared with the ' +
      "sandbox's own quote for the same amount at the same clock, asked directly. A fiat amount typed is what the " +
      'shopper pays, fees inside, so the sandbox is asked for the amount before fees the backend priced it from. ' +
      'Relative difference: the largest over the crypto amount, the fiat before fees and the fiat paid.',
    '',
    row(['', 'value']),
    row(['---', '---:']),
    row(['derived answers / asked', `${a.derived} / ${a.asked}`]),
    row(['answered by the upstream instead / refused (limits)', `${a.notDerived} / ${a.refused}`]),
    row(['compared with the upstream', a.compared]),
    row(['identical in every figure', `${a.exact} (${share(a.exact, a.compared)})`]),
    row(['**max relative difference**', `**${pct(a.maxRelativeDiff)}**`]),
    row(['p99 / mean relative difference', `${pct(a.p99RelativeDiff)} / ${pct(a.meanRelativeDiff)}`]),
    row([
      'fiat typed: total paid equal to it / over it',
      `${a.typedTotals.exact} of ${a.typedTotals.asked} (${share(a.typedTotals.exact, a.typedTotals.asked)}) / ${a.typedTotals.over}`,
    ]),
    row(['fiat typed: most cents short of it otherwise', a.typedTotals.maxCentsShort]),
    '',
    a.worst && a.maxRelativeDiff > 0
      ? `Largest difference: ${JSON.stringify(a.worst.combo)} ${JSON.stringify(a.worst.amount)} → ours ` +
        `${a.worst.ours.join(' / ')}, upstream ${a.worst.theirs.join(' / ')} (crypto / before fees / paid).`
      : 'No derived quote differed from the upstream in any figure.',
    '',
    `Goal: ≥ 500 compared — ${yes(a.compared >= 500)} (${a.compared}); max ≤ 0.1 % — ${yes(a.maxRelativeDiff <= 0.001)}.`,
    '',
  ];
}

/** A profile's shares: by where the code lives, (optionally) inclusive for our code and Hono's, and self. */
function profileTables(p: ProfileResult, { inclusive }: { inclusive: boolean }): string[] {
  const pct = (value: number) => `${round1(value * 100)} %`;
  const table = (heading: string, entries: Array<[string, number]>) => [
    row([heading, 'share']),
    row(['---', '---:']),
    ...entries.map(([name, share]) => row([name, pct(share)])),
    '',
  ];
  const fn = (entry: { fn: string; share: number }): [string, number] => [`\`${entry.fn}\``, entry.share];
  return [
    ...table(
      'where the code lives',
      p.byPlace.map((entry) => [entry.place, entry.share]),
    ),
    ...(inclusive
      ? table("our code and Hono's, with what they call (inclusive)", p.topInclusive.map(fn))
      : []),
    ...table('functions by their own time (self)', p.topSelf.map(fn)),
  ];
}

/** Where a quote's time goes: the profile of the load step's route, and what issue 11 changed from it. */
export function quoteProfileSection(q: ProfileResult): string[] {
  return [
    "### Where a quote's time goes (CPU profile)",
    '',
    `The same profiler on a backend of its own while autocannon posts the load step's mix (50 combinations, 60 % ` +
      `round amounts) to \`/api/quotes/buy\` for ${q.durationS} s over ${q.connections} connections, closed loop: ` +
      `${q.requestsPerSecond} quotes/s under the profiler; ${q.busyS} s of CPU sampled. Shares of the busy time:`,
    '',
    ...profileTables(q, { inclusive: false }),
    "What this profile found (issue 11, measured with this step, closed loop, 10 connections): Hono's `bodyLimit` " +
      'reads `c.req.raw.body` to see whether there is a body, which makes the Node adapter build a full undici ' +
      '`Request` (with its `AbortSignal`) for every POST, about a fifth of the CPU; a request that declares its ' +
      "length is now judged by that header before Hono's middleware is asked (only a chunked body meets it), and " +
      "the handler's `c.req.json()` reads straight off the socket: 2,065 → 3,007 quotes/s. After the fees-inside " +
      "change, a method's limits as totals were worked out again for every quote (a sixth of the CPU) and big.js's " +
      'long division stood in for multiplying by 0.01: the limits are now kept per method and inputs, and the ' +
      "hundredths multiply: 2,589 → 3,043 quotes/s. What is left is the socket write (`writev`: the kernel's " +
      "loopback TCP, one call per answer), the fee model's exact decimal arithmetic, and Hono's own middleware. " +
      'A fourth pass, measured as CPU per quote from `/proc` (closed loop, the mix): 255 µs at its start. A freely ' +
      'typed amount cost 330 µs against 169 for a round one, a third of it in scavenges of the 1 MB young ' +
      'generation: the CLI now lets it grow to two 4 MB semi-spaces once its loop has been busy for a second ' +
      "(267 µs). A buy's basis is walked to from a float estimate (3 or so exact totals instead of 11, 17.5 → " +
      '3.9 µs). An answer given for a total is given again while its reference, method and rates are the same ' +
      '(a round amount 188 → 142 µs), and JSON answers carry the security headers an API answer needs: the mix ' +
      '255 → about 188 µs (4,455 quotes/s under this profiler, 3,684 before).',
    '',
  ];
}

export function profileSection(p: ProfileResult, o: OverheadResult, health?: ProfileResult): string[] {
  const pct = (value: number) => `${round1(value * 100)} %`;
  return [
    "### Where a cached route's time goes (CPU profile)",
    '',
    `\`node --cpu-prof\` on a backend of its own (the built package, plain node) while autocannon asks ` +
      `\`GET ${p.route}\` for ${p.durationS} s over ${p.connections} connections (${p.requestsPerSecond} requests/s ` +
      `under the profiler); ${p.busyS} s of CPU sampled, the process idle ${pct(p.idleShare)} of the time (the ` +
      'load generator shares the cores). Shares of the busy time:',
    '',
    ...profileTables(p, { inclusive: true }),
    "What the profile found and what was done (issue 11): before, Hono's `cors` ran on every `/api` request and " +
      "wrote to `c.res` before the handler, so Hono rebuilt the handler's answer around its body: the adapter's " +
      "lightweight response became a real `Response` and the catalog's string went out through a web " +
      'ReadableStream (about a fifth of the CPU). `cors` now answers preflights as before and adds its headers to ' +
      'the other requests from a page once the answer exists; a request without an `Origin` is no CORS request ' +
      "(every answer still says `Vary: Origin`). The rate limiter's client address came from `getConnInfo` " +
      "inside a try/catch that threw a TypeError on every request the adapter's bindings did not reach (7 % of " +
      'the CPU); it now checks instead. Whether a method list is keyed by country is now known once per list. ' +
      "What is left beside the same-bytes reference is Hono's own middleware doing its job (`secureHeaders`' 13 " +
      "headers through undici's `Headers`, `requestId`, the rate limiter's bucket and headers), the query " +
      'validation of `@hono/zod-openapi`, and routing through the mounted sub-apps. Same run: catalog ÷ ' +
      `same-bytes ${o.throughput.catalogOverSameBytes}, as a CORS request ${o.throughput.catalogCorsOverSameBytes}.`,
    '',
    ...(health
      ? [
          `\`GET /healthz\` profiled the same way (${health.requestsPerSecond} requests/s under the profiler; ` +
            `/healthz ÷ hello ${o.throughput.healthzOverHello} in the overhead run). A bare "hello" sets no header; ` +
            "/healthz goes through the app's outer middleware (request id, the mount path, `secureHeaders`) and " +
            "answers JSON. Our code and Hono's, inclusive:",
          '',
          row(['function', 'share']),
          row(['---', '---:']),
          ...health.topInclusive.slice(0, 10).map((entry) => row([`\`${entry.fn}\``, pct(entry.share)])),
          '',
        ]
      : []),
  ];
}

export function overheadSection(o: OverheadResult): string[] {
  return [
    '## 5. Overhead',
    '',
    `Throughput, autocannon ${o.throughput.connections} connections × ${o.throughput.durationS} s each, five rounds, ` +
      'the targets in turn (the catalog right before its same-bytes reference), no rate cap, each server in its own ' +
      'process on `@hono/node-server` and plain `node` (the backend: the built package; the references: ' +
      "bench/bare.mjs); requests/s are the rounds' mean, each ratio the median of the rounds' own ratios, so a " +
      'burst of other work on the machine during one round moves it little. The same-bytes reference is a bare ' +
      "Hono app serving the catalog's bytes with the backend's headers.",
    '',
    row(['', 'requests/s', 'p50 latency', 'ratio']),
    row(['---', '---:', '---:', '---:']),
    row([
      'bare Hono "hello" (reference for /healthz)',
      o.throughput.helloRps,
      `${o.throughput.helloLatencyP50Ms} ms`,
      '1',
    ]),
    row([
      'backend `GET /healthz` (outer middleware only)',
      o.throughput.healthzRps,
      '',
      `**${o.throughput.healthzOverHello}** of hello`,
    ]),
    row([`bare Hono, same bytes and headers as the catalog (reference)`, o.throughput.sameBytesRps, '', '1']),
    row([
      `backend \`GET /api/catalog?country=DE\`, cached (${kB(o.throughput.catalogBytes)} JSON)`,
      o.throughput.catalogRps,
      `${o.throughput.catalogLatencyP50Ms} ms`,
      `**${o.throughput.catalogOverSameBytes}** of same-bytes`,
    ]),
    row([
      'the same, as a CORS request (allowed `Origin`)',
      o.throughput.catalogCorsRps,
      '',
      `${o.throughput.catalogCorsOverSameBytes} of same-bytes`,
    ]),
    '',
    `Goal: cached catalog ≥ 0.5 of the same-bytes reference — ${yes(o.throughput.catalogOverSameBytes >= 0.5)} ` +
      `(${o.throughput.catalogOverSameBytes}); catalog ÷ hello ${o.throughput.ratio} (the figure issue 11 started from: 0.05–0.1).`,
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
      'through the backend, a new amount each time (derived after the first)',
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
    `A quote through the backend takes ${o.quoteLatency.addedMs} ms (median) more than calling the upstream directly` +
      (o.quoteLatency.failures ? `; ${o.quoteLatency.failures} requests failed.` : '.'),
    '',
  ];
}

const freshHow = (entry: FreshBackendMemory) =>
  entry.flags
    ? `the CLI with Node's own young generation (\`node ${entry.flags}\`: as an app embedding the backend untuned)`
    : 'the CLI as a merchant runs it';

export function memorySection(m: Results['memory']): string[] {
  const at1000 = m.peakRssByRate.find((entry) => entry.rate === 1000 && entry.arrivals === 'poisson');
  return [
    '## 6. Memory',
    '',
    'The backend role is the built package on plain `node` (no tsx in the process).',
    '',
    row(['backend process (`/proc/<pid>/status`)', 'MB']),
    row(['---', '---:']),
    row(['RSS at start (idle)', m.rssAtStartMb ?? '–']),
    row(['RSS before the loads (after the overhead runs)', m.rssBeforeLoadMb ?? '–']),
    ...m.peakRssByRate.map((entry) =>
      row([
        m.peakResetWorked
          ? `**peak RSS during the ${entry.rate}/s load${arrivalNote(entry.arrivals)}** (VmHWM, reset before it)`
          : `peak RSS (VmHWM since start) after the ${entry.rate}/s load${arrivalNote(entry.arrivals)}`,
        `**${entry.peakRssMb ?? '–'}** (sampled every 250 ms: ${entry.sampledPeakRssMb})`,
      ]),
    ),
    row(['RSS right after the loads', m.rssAfterLoadMb ?? '–']),
    row(['RSS idle again (after the loads, nothing to do)', m.rssIdleMb ?? '–']),
    ...(m.fresh ?? []).map((entry) =>
      row([
        `**peak RSS during the ${entry.rate}/s load, ${freshHow(entry)}** (\`packages/backend/dist/cli.js\`, live ` +
          `against the bench's sandbox, its SQLite store; a process of its own with nothing else to do before; ` +
          `${entry.ok2xx} of ${entry.answered} answered with a quote, p99 ${entry.p99Ms} ms)`,
        `**${entry.peakRssMb ?? '–'}** (sampled: ${entry.sampledPeakRssMb})`,
      ]),
    ),
    '',
    'What holds the memory (a heap snapshot of the backend right after a 1000/s load, `--heapsnapshot-signal`, ' +
      'summed by kind; measured on 2026-11-25 apart from this run): the live heap is about 20 MB, of which compiled ' +
      'code 7.3 MB, strings 4.4 MB (the upstream lists, the OpenAPI document), arrays 2.7 MB and object shapes ' +
      "1.6 MB; the quote engine's and the catalog's caches are small. (Before issue 11's body-limit change, " +
      "thousands of undici `Request` objects and their abort listeners waited there too: Hono's `bodyLimit` made " +
      'the adapter build one for every POST.) The rest of the RSS is what V8 reserves, not what it holds: Node with ' +
      "the backend's code loaded idles at about 80 MB before its first request (Node alone: 39 MB), and the young " +
      'generation grows to its default cap (two 16 MB semi-spaces) as soon as the process is busy, or while Node ' +
      "parses the app's modules. The CLI keeps it at its first size (two 1 MB semi-spaces): its bin, " +
      "`packages/backend/src/cli.ts`, sets V8's semi-space growth factor to 1 (`young-generation.ts`) and only then " +
      'imports the app. V8 reads that factor each time it would grow the young generation, while ' +
      '`--max-semi-space-size` is taken only when the process starts. Measured on 2026-11-25 apart from this run, ' +
      'on the CLI under the 1000/s load: young generation 16.8 → 2.1 MB, RSS at start 101 → 88 MB, during the load ' +
      '138 → 112 MB. Once its event loop has been busy for a second (the 5000/s step; 1000/s keeps it ' +
      'under half busy), it lets V8 grow the young generation to two 4 MB semi-spaces and no further, which saves ' +
      "a fifth of a freely typed quote's CPU. The bench's backend role loads the same way; an app embedding the " +
      'backend sets its own ' +
      '(README, Deploying). The goal rows run the CLI itself, live against the sandbox on its SQLite store, as a ' +
      'merchant does.',
    '',
    `Goal: peak RSS under the 1000/s load ≤ 120 MB — ` +
      (m.fresh ?? [])
        .map(
          (entry) =>
            `${freshHow(entry)} ${yes((entry.peakRssMb ?? Number.POSITIVE_INFINITY) <= 120)} ` +
            `(${entry.peakRssMb ?? '–'} MB)`,
        )
        .join('; ') +
      `; the backend that served the whole run before its loads ` +
      `${yes((at1000?.peakRssMb ?? Number.POSITIVE_INFINITY) <= 120)} (${at1000?.peakRssMb ?? '–'} MB).`,
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
    ...accuracySection(r.accuracy),
    ...overheadSection(r.overhead),
    ...profileSection(r.profile, r.overhead, r.healthProfile),
    ...quoteProfileSection(r.quoteProfile),
    ...memorySection(r.memory),
  ];
  return `${lines.join('\n')}\n`;
}
