/**
 * `npm run bench`: what a merchant and a shopper pay, each figure beside a reference measured in the same run.
 * Writes bench/results.json and bench/results.md. Nothing here asserts a timing; the goals are reported as met
 * or not. Every server runs in a process of its own (bench/server.ts), on loopback, with bounded load.
 *
 * `npm run bench -- <part>…` (parts: weight, ttfq, overhead, load, accuracy, profile, instances, cold, observability, rolling, workers, admin-orders; `load` includes
 * memory) runs only those parts and prints their sections; bench/results.* stay the record of the last full run.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { measureAccuracy, measureTypedTotals } from './accuracy.ts';
import { measureAdminOrders, writeAdminOrdersResult } from './admin-orders.ts';
import { coldStartMarkdown, measureColdStart, writeColdStartResult } from './cold-start.ts';
import { instancesMarkdown, measureInstances, writeInstancesResult } from './instances.ts';
import {
  benchDir,
  benchRateLimitPerMinute,
  type Child,
  getJson,
  procCpuSeconds,
  procMemory,
  resetPeakRss,
  root,
  round,
  sleep,
  startServer,
} from './lib.ts';
import { type ArrivalPattern, amountOf, buildCombos, type Combo, type LoadRun, runLoad } from './load.ts';
import { measureObservability, observabilityMarkdown, writeObservabilityResult } from './observability.ts';
import { measureOverhead } from './overhead.ts';
import { prng } from './prng.ts';
import { profileRoute } from './profile.ts';
import {
  accuracySection,
  type BackendLoad,
  type FreshBackendMemory,
  loadSection,
  memorySection,
  overheadSection,
  profileSection,
  quoteProfileSection,
  type Results,
  renderMarkdown,
  ttfqSection,
  weightSection,
} from './report.ts';
import { measureRolling, rollingMarkdown, writeRollingResult } from './rolling.ts';
import { measureTtfq } from './ttfq.ts';
import { measureWeight } from './weight.ts';
import { measureWorkers, workersMarkdown, writeWorkersResult } from './workers.ts';

const LOAD_RATE = 1000;
/**
 * The backend's load steps: shoppers arriving independently (Poisson) at LOAD_RATE and at 5000/s, then LOAD_RATE
 * as autocannon sends it (the whole second's requests at once). The pass-through proxy: LOAD_RATE, Poisson.
 */
const LOAD_STEPS: { rate: number; arrivals: ArrivalPattern }[] = [
  { rate: LOAD_RATE, arrivals: 'poisson' },
  { rate: 5000, arrivals: 'poisson' },
  { rate: LOAD_RATE, arrivals: 'burst' },
];
const LOAD_SECONDS = 20;
/** The markup the accuracy step's backend prices with, so the markup is part of what is compared. */
const ACCURACY_MARKUP = 1;
const LOAD_CONNECTIONS = 1000;
const TTFQ_LOADS = 20;

const PARTS = [
  'weight',
  'ttfq',
  'overhead',
  'load',
  'accuracy',
  'profile',
  'instances',
  'cold',
  'observability',
  'rolling',
  'workers',
  'admin-orders',
] as const;
type Part = (typeof PARTS)[number];
const asked = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = asked.filter((arg) => !(PARTS as readonly string[]).includes(arg));
if (unknown.length) {
  console.error(`unknown part ${unknown.join(', ')}; usage: npm run bench [-- ${PARTS.join('|')} …]`);
  process.exit(2);
}
const full = asked.length === 0;
const wants = (part: Part) => full || asked.includes(part);

const started = performance.now();
const loadAverageAtStart = loadavg().map(round);
const log = (line: string) =>
  console.log(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${line}`);

function git(args: string[]): string {
  return spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout.trim();
}

const needsBuild = wants('weight') || wants('ttfq');
if (needsBuild) log('building the widget (npm run build -w packages/widget)…');
const build = needsBuild
  ? spawnSync('npm', ['run', 'build', '-w', 'packages/widget'], { cwd: root, encoding: 'utf8' })
  : { status: 0, stdout: '', stderr: '' };
const widgetBuild = {
  ok: build.status === 0,
  output: `${build.stdout}${build.stderr}`
    .split('\n')
    .filter((line) => /crypto-checkout\.js|error|Error/.test(line))
    .slice(0, 5),
};
if (!widgetBuild.ok) log(`widget build FAILED; measuring the dist already there:\n${build.stderr}`);

if (wants('weight')) log('weight: bundling the npm entry and the floor with Vite…');
const weight = wants('weight') ? await measureWeight() : undefined;

/** The load steps (the backend at each rate, then the pass-through proxy, same stream) and the backend's memory. */
async function measureLoadAndMemory(
  backend: Child,
  proxy: Child,
  sandboxUrl: string,
  memoryAtStart: ReturnType<typeof procMemory>,
  combos: Combo[],
): Promise<{ load: Results['load']; memory: Results['memory'] }> {
  const memoryBeforeLoad = procMemory(backend.pid);
  const loadOptions = {
    sandboxUrl,
    combos,
    durationS: LOAD_SECONDS,
    connections: LOAD_CONNECTIONS,
    seed: 20_261_122,
  };
  const runs: BackendLoad[] = [];
  let peakReset = true;
  for (const { rate, arrivals } of LOAD_STEPS) {
    await sleep(1500); // the budget's window empties
    peakReset = resetPeakRss(backend.pid) && peakReset;
    const budgetBefore = await getJson<Record<string, number>>(`${backend.url}/__bench/budget`);
    let sampledPeakRssMb = 0;
    const sampler = setInterval(() => {
      sampledPeakRssMb = Math.max(sampledPeakRssMb, procMemory(backend.pid)?.rssMb ?? 0);
    }, 250);
    const cpuBefore = procCpuSeconds(backend.pid);
    log(`load: ${rate} quote requests/s (${arrivals}) for ${LOAD_SECONDS} s through the backend…`);
    const run: LoadRun = await runLoad({
      ...loadOptions,
      rate,
      arrivals,
      label: 'backend',
      url: backend.url,
    });
    const cpuSeconds = procCpuSeconds(backend.pid) - cpuBefore;
    clearInterval(sampler);
    const budgetAfter = await getJson<Record<string, number>>(`${backend.url}/__bench/budget`);
    const delta = (key: string) => (budgetAfter[key] ?? 0) - (budgetBefore[key] ?? 0);
    runs.push({
      rate,
      arrivals,
      run,
      budget: {
        perSecond: budgetAfter.perSecond,
        granted: delta('granted'),
        refused: delta('refused'),
        waited: delta('waited'),
        maxInWindow: budgetAfter.maxInWindow,
        throttledByUpstream: delta('throttledByUpstream'),
      },
      cpu: { seconds: round(cpuSeconds), percentOfOneCore: round((cpuSeconds / LOAD_SECONDS) * 100) },
      peakRssMb: peakReset ? (procMemory(backend.pid)?.hwmMb ?? null) : null,
      sampledPeakRssMb,
    });
  }
  const memoryAfterLoad = procMemory(backend.pid);

  await sleep(1500);
  log(`load: the same ${LOAD_RATE}/s stream through the pass-through proxy (no budget, no cache)…`);
  const proxyRun: LoadRun = await runLoad({
    ...loadOptions,
    rate: LOAD_RATE,
    label: 'pass-through proxy',
    url: proxy.url,
  });
  // The backend has had nothing to do while the proxy ran: what it holds when idle again.
  const memoryIdle = procMemory(backend.pid);

  return {
    load: {
      settings: {
        rate: LOAD_RATE,
        durationS: LOAD_SECONDS,
        connections: LOAD_CONNECTIONS,
        combinations: combos.length,
        amounts: '60 % one of 50/100/150/200/250/300/500/750, 40 % uniform 50.00–950.00 (seeded)',
        backendRateLimitPerMinute: benchRateLimitPerMinute,
        backendAccessLog: 'off',
        backendStore: 'memory',
        upstreamBudgetPerSecond: runs[0]?.budget.perSecond,
        sandboxRateLimitPerSecond: 100,
      },
      backend: runs,
      passthrough: proxyRun,
    },
    memory: {
      rssAtStartMb: memoryAtStart?.rssMb ?? null,
      rssBeforeLoadMb: memoryBeforeLoad?.rssMb ?? null,
      peakRssByRate: runs.map((entry) => ({
        rate: entry.rate,
        arrivals: entry.arrivals,
        peakRssMb: entry.peakRssMb,
        sampledPeakRssMb: entry.sampledPeakRssMb,
      })),
      rssAfterLoadMb: memoryAfterLoad?.rssMb ?? null,
      rssIdleMb: memoryIdle?.rssMb ?? null,
      peakResetWorked: peakReset,
    },
  };
}

/**
 * Node's own young generation (two semi-spaces growing to 16 MB each), as in an app that embeds the backend
 * untuned: V8's default growth factor, given so that the CLI's setting (young-generation.ts) stands aside.
 */
const NODE_DEFAULT_FLAGS = ['--semi-space-growth-factor=2'];

/**
 * The 1000/s load again on the built CLI itself (`crypto-checkout-backend`, live against the bench's sandbox, its
 * SQLite store: what a merchant runs), a process that has had nothing else to do (the main backend has served the
 * overhead runs' thousands of catalogs before its loads): its peak RSS and answers.
 */
async function freshBackendStep(sandboxUrl: string, flags: string[]): Promise<FreshBackendMemory> {
  const how = flags.length ? `started with ${flags.join(' ')}` : 'as it starts';
  log(`memory: the CLI ${how}, ${LOAD_RATE}/s for ${LOAD_SECONDS} s…`);
  const fresh = await startServer('cli', { BENCH_SANDBOX_URL: sandboxUrl }, flags);
  children.push(fresh);
  try {
    const combos = await buildCombos(fresh.url);
    await sleep(1500);
    const reset = resetPeakRss(fresh.pid);
    let sampledPeakRssMb = 0;
    const sampler = setInterval(() => {
      sampledPeakRssMb = Math.max(sampledPeakRssMb, procMemory(fresh.pid)?.rssMb ?? 0);
    }, 250);
    const run = await runLoad({
      label: `CLI (fresh, ${how})`,
      url: fresh.url,
      sandboxUrl,
      combos,
      rate: LOAD_RATE,
      durationS: LOAD_SECONDS,
      connections: LOAD_CONNECTIONS,
      seed: 20_261_122,
    });
    clearInterval(sampler);
    return {
      flags: flags.join(' '),
      rate: LOAD_RATE,
      peakRssMb: reset ? (procMemory(fresh.pid)?.hwmMb ?? null) : null,
      sampledPeakRssMb,
      answered: run.answered,
      ok2xx: run.ok2xx,
      p99Ms: run.latencyOkMs.p99,
    };
  } finally {
    await fresh.stop();
  }
}

/** A quote's CPU: POST /api/quotes/buy with the load step's mix, on a profiled backend of its own. */
async function profileQuotes(sandboxUrl: string) {
  let combos: Combo[] = [];
  const random = prng(20_261_122);
  return profileRoute(sandboxUrl, '', 6, {
    path: '/api/quotes/buy',
    prepare: async (backendUrl) => {
      combos = await buildCombos(backendUrl);
    },
    body: () => {
      const combo = combos[Math.floor(random() * combos.length)] as Combo;
      return JSON.stringify({ ...combo, fiatAmount: amountOf(random) });
    },
  });
}

/**
 * Time to first quote on a backend of its own: its `Server-Timing` (bench/backend.mjs) follows each request of the
 * bench page with an AsyncLocalStorage, and once one is used, Node runs a hook on every promise of the process
 * for the rest of its life: the main backend then served the cached catalog about a third slower (measured
 * 2026-11-25: 16.3k → 10.9k requests/s), every step after this one with it.
 */
async function ttfqStep(sandboxUrl: string) {
  const own = await startServer('backend', { BENCH_SANDBOX_URL: sandboxUrl });
  children.push(own);
  try {
    return await measureTtfq(own.url, { loads: TTFQ_LOADS });
  } finally {
    await own.stop();
  }
}

/** Accuracy on a backend of its own (a fresh engine, MARKUP set), with the sandbox's clock pinned. */
async function accuracyStep(sandboxUrl: string, combos: Combo[]) {
  log('accuracy: a fresh backend, the sandbox clock pinned, derived quotes vs the sandbox…');
  const fresh = await startServer('backend', {
    BENCH_SANDBOX_URL: sandboxUrl,
    MARKUP: String(ACCURACY_MARKUP),
  });
  children.push(fresh);
  let accuracy: Awaited<ReturnType<typeof measureAccuracy>>;
  try {
    accuracy = await measureAccuracy({ backendUrl: fresh.url, sandboxUrl, combos, markup: ACCURACY_MARKUP });
  } finally {
    await fresh.stop();
  }
  log(
    'accuracy: typed versus charged, against the sandbox in each of its fee models (a fresh backend each)…',
  );
  accuracy.feeModels = await measureTypedTotals({
    sandboxUrl,
    markup: ACCURACY_MARKUP,
    adminToken: 'bench-admin-token-0123456789abcdef',
    backendFor: async () => {
      const own = await startServer('backend', {
        BENCH_SANDBOX_URL: sandboxUrl,
        MARKUP: String(ACCURACY_MARKUP),
      });
      children.push(own);
      return own;
    },
  });
  return accuracy;
}

const children: Child[] = [];
const stopAll = () => Promise.all(children.map((child) => child.stop()));
process.once('SIGINT', () => {
  stopAll().finally(() => process.exit(130));
});

try {
  log('starting sandbox, backend, pass-through proxy and hello (one process each)…');
  const sandbox = await startServer('sandbox');
  children.push(sandbox);
  const [backend, proxy, hello] = await Promise.all([
    startServer('backend', { BENCH_SANDBOX_URL: sandbox.url }),
    startServer('proxy', { BENCH_SANDBOX_URL: sandbox.url }),
    startServer('hello'),
  ]);
  children.push(backend, proxy, hello);
  const memoryAtStart = procMemory(backend.pid);

  if (wants('ttfq'))
    log(`time to first quote: ${TTFQ_LOADS} page loads per series (cold, warm; loopback, emulated latency)…`);
  const ttfq = wants('ttfq') ? await ttfqStep(sandbox.url) : undefined;

  let overhead: Results['overhead'] | undefined;
  if (wants('overhead')) {
    // The same-bytes reference copies the catalog's answer (bytes and headers) once the backend serves it.
    const sameBytes = await startServer('same-bytes', {
      BENCH_CATALOG_URL: `${backend.url}/api/catalog?country=DE`,
    });
    children.push(sameBytes);
    log('overhead: catalog vs same-bytes, healthz vs hello throughput; proxied vs direct quote latency…');
    overhead = await measureOverhead({
      backendUrl: backend.url,
      helloUrl: hello.url,
      sameBytesUrl: sameBytes.url,
      origin: backend.url,
      sandboxUrl: sandbox.url,
    });
    await sameBytes.stop();
  }
  if (wants('profile'))
    log('profile: node --cpu-prof on a backend of its own, cached catalog under autocannon…');
  const profile = wants('profile') ? await profileRoute(sandbox.url) : undefined;
  const healthProfile = wants('profile') ? await profileRoute(sandbox.url, '/healthz') : undefined;
  if (wants('profile'))
    log('profile: the same, POST /api/quotes/buy with the load mix (closed loop, 10 connections)…');
  const quoteProfile = wants('profile') ? await profileQuotes(sandbox.url) : undefined;

  const needsCombos = wants('load') || wants('accuracy');
  if (needsCombos) log('load: 50 combinations (each priced once, paced)…');
  const combos = needsCombos ? await buildCombos(backend.url) : [];
  const loaded = wants('load')
    ? await measureLoadAndMemory(backend, proxy, sandbox.url, memoryAtStart, combos)
    : undefined;
  const accuracy = wants('accuracy') ? await accuracyStep(sandbox.url, combos) : undefined;
  if (loaded) {
    loaded.memory.fresh = [];
    for (const flags of [[], NODE_DEFAULT_FLAGS])
      loaded.memory.fresh.push(await freshBackendStep(sandbox.url, flags));
  }

  if (!full) {
    const sections = [
      ...(weight ? weightSection(weight) : []),
      ...(ttfq ? ttfqSection(ttfq) : []),
      ...(loaded ? loadSection(loaded.load) : []),
      ...(accuracy ? accuracySection(accuracy) : []),
      ...(overhead ? overheadSection(overhead) : []),
      ...(profile && overhead ? profileSection(profile, overhead, healthProfile) : []),
      ...(quoteProfile ? quoteProfileSection(quoteProfile) : []),
      ...(loaded ? memorySection(loaded.memory) : []),
    ];
    if (profile && !overhead) console.log(JSON.stringify(profile, null, 2));
    console.log(`\n${sections.join('\n')}`);
    log(`done (${asked.join(', ')} only; bench/results.* left as they were)`);
  } else {
    if (!weight || !ttfq || !overhead || !loaded || !accuracy || !profile || !healthProfile || !quoteProfile)
      throw new Error('a full run measures every part');
    const results: Results = {
      meta: {
        date: new Date().toISOString(),
        command: 'npm run bench',
        commit: git(['rev-parse', '--short', 'HEAD']),
        uncommittedChanges: git(['status', '--porcelain']).split('\n').filter(Boolean).length,
        node: process.version,
        cpu: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
        memoryGb: round(totalmem() / 2 ** 30),
        loadAverageAtStart,
        loadAverageAtEnd: loadavg().map(round),
        widgetBuild,
        durationS: 0,
      },
      weight,
      ttfq: { browser: ttfq.browser, cold: ttfq.cold, warm: ttfq.warm, emulated: ttfq.emulated },
      load: loaded.load,
      accuracy,
      overhead,
      profile,
      quoteProfile,
      healthProfile,
      memory: loaded.memory,
      combos,
    };
    results.meta.durationS = round((performance.now() - started) / 1000);
    writeFileSync(join(benchDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(join(benchDir, 'results.md'), renderMarkdown(results));
    log(`done in ${results.meta.durationS} s: bench/results.json, bench/results.md`);
  }
} finally {
  await stopAll();
}

// The three-instance series runs once the single-instance servers are gone (they would share the cores).
if (wants('instances')) {
  const result = await measureInstances(log);
  writeInstancesResult(result);
  console.log(`\n${instancesMarkdown(result)}`);
  log('instances: bench/instances-results.json, bench/instances-results.md');
}

// A freshly started instance, and three, under load from their first second (issue 47 part 4).
if (wants('cold')) {
  const result = await measureColdStart(log);
  writeColdStartResult(result);
  console.log(`\n${coldStartMarkdown(result)}`);
  log('cold: bench/cold-start-results.json, bench/cold-start-results.md');
}

// Metrics and JSON logs on against off, once the other servers are gone (they would share the cores).
if (wants('observability')) {
  const sandbox = await startServer('sandbox');
  try {
    const result = await measureObservability(sandbox.url, log);
    writeObservabilityResult(result);
    console.log(`\n${observabilityMarkdown(result)}`);
    log('observability: bench/observability-results.json, bench/observability-results.md');
  } finally {
    await sandbox.stop();
  }
}

// The rolling restarts too: their own deployment behind HAProxy, once the others are gone.
if (wants('rolling')) {
  const result = await measureRolling(log);
  writeRollingResult(result);
  console.log(`\n${rollingMarkdown(result)}`);
  log('rolling: bench/rolling-results.json, bench/rolling-results.md');
}

// The admin's ledger search at 100,000 orders, SQLite and PostgreSQL.
if (wants('admin-orders')) {
  log('admin-orders: the ledger search at 100,000 orders, first and deep pages, SQLite and PostgreSQL…');
  const result = await measureAdminOrders();
  writeAdminOrdersResult(result);
  console.log(JSON.stringify(result, null, 2));
  log('admin-orders: bench/admin-orders-results.json');
}

// One Worker isolate in Miniflare beside the CLI on Node, each alone on the cores in turn.
if (wants('workers')) {
  log(
    'workers: the quote rate of one Worker isolate (Miniflare) beside the CLI on Node, a closed loop each…',
  );
  const result = await measureWorkers();
  writeWorkersResult(result);
  console.log(`\n${workersMarkdown(result).join('\n')}`);
  log('workers: bench/workers-results.json, bench/workers-results.md');
}
