/**
 * `npm run bench`: what a merchant and a shopper pay, each figure beside a reference measured in the same run.
 * Writes bench/results.json and bench/results.md. Nothing here asserts a timing; the goals are reported as met
 * or not. Every server runs in a process of its own (bench/server.ts), on loopback, with bounded load.
 *
 * `npm run bench -- <part>…` (parts: weight, ttfq, overhead, load, instances; `load` includes memory) runs only those
 * parts and prints their sections; bench/results.* stay the record of the last full run.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
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
import { buildCombos, type LoadRun, runLoad } from './load.ts';
import { measureOverhead } from './overhead.ts';
import {
  loadSection,
  memorySection,
  overheadSection,
  type Results,
  renderMarkdown,
  ttfqSection,
  weightSection,
} from './report.ts';
import { measureTtfq } from './ttfq.ts';
import { measureWeight } from './weight.ts';

const LOAD_RATE = 1000;
const LOAD_SECONDS = 20;
const LOAD_CONNECTIONS = 1000;
const TTFQ_LOADS = 20;

const PARTS = ['weight', 'ttfq', 'overhead', 'load', 'instances'] as const;
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

/** The load step (backend, then the pass-through proxy, same stream) and the backend's memory around it. */
async function measureLoadAndMemory(
  backend: Child,
  proxy: Child,
  sandboxUrl: string,
  memoryAtStart: ReturnType<typeof procMemory>,
): Promise<{ load: Results['load']; memory: Results['memory']; combos: Results['combos'] }> {
  log('load: 50 combinations (each priced once, paced)…');
  const combos = await buildCombos(backend.url);
  await sleep(1100); // the budget's window empties

  const memoryBeforeLoad = procMemory(backend.pid);
  const peakReset = resetPeakRss(backend.pid);
  const budgetBefore = await getJson<Record<string, number>>(`${backend.url}/__bench/budget`);
  let sampledPeakRssMb = 0;
  const sampler = setInterval(() => {
    sampledPeakRssMb = Math.max(sampledPeakRssMb, procMemory(backend.pid)?.rssMb ?? 0);
  }, 250);
  const cpuBefore = procCpuSeconds(backend.pid);
  log(`load: ${LOAD_RATE} quote requests/s for ${LOAD_SECONDS} s through the backend…`);
  const loadOptions = {
    sandboxUrl,
    combos,
    rate: LOAD_RATE,
    durationS: LOAD_SECONDS,
    connections: LOAD_CONNECTIONS,
    seed: 20_261_122,
  };
  const backendRun: LoadRun = await runLoad({ ...loadOptions, label: 'backend', url: backend.url });
  const cpuSeconds = procCpuSeconds(backend.pid) - cpuBefore;
  clearInterval(sampler);
  const memoryAfterLoad = procMemory(backend.pid);
  const budgetAfter = await getJson<Record<string, number>>(`${backend.url}/__bench/budget`);
  const budget = {
    perSecond: budgetAfter.perSecond,
    granted: (budgetAfter.granted ?? 0) - (budgetBefore.granted ?? 0),
    refused: (budgetAfter.refused ?? 0) - (budgetBefore.refused ?? 0),
    waited: (budgetAfter.waited ?? 0) - (budgetBefore.waited ?? 0),
    maxInWindow: budgetAfter.maxInWindow,
    throttledByUpstream: (budgetAfter.throttledByUpstream ?? 0) - (budgetBefore.throttledByUpstream ?? 0),
  };

  await sleep(1500);
  log(`load: the same stream through the pass-through proxy (no budget, no cache)…`);
  const proxyRun: LoadRun = await runLoad({ ...loadOptions, label: 'pass-through proxy', url: proxy.url });

  return {
    combos,
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
        upstreamBudgetPerSecond: budget.perSecond,
        sandboxRateLimitPerSecond: 100,
      },
      backend: backendRun,
      budget,
      backendCpu: { seconds: round(cpuSeconds), percentOfOneCore: round((cpuSeconds / LOAD_SECONDS) * 100) },
      passthrough: proxyRun,
    },
    memory: {
      rssAtStartMb: memoryAtStart?.rssMb ?? null,
      rssBeforeLoadMb: memoryBeforeLoad?.rssMb ?? null,
      peakRssDuringLoadMb: peakReset ? (memoryAfterLoad?.hwmMb ?? null) : null,
      peakRssSinceStartMb: peakReset ? null : (memoryAfterLoad?.hwmMb ?? null),
      sampledPeakRssMb,
      rssAfterLoadMb: memoryAfterLoad?.rssMb ?? null,
      peakResetWorked: peakReset,
    },
  };
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
  const ttfq = wants('ttfq') ? await measureTtfq(backend.url, { loads: TTFQ_LOADS }) : undefined;

  if (wants('overhead')) log('overhead: catalog vs hello throughput, proxied vs direct quote latency…');
  const overhead = wants('overhead')
    ? await measureOverhead({ backendUrl: backend.url, helloUrl: hello.url, sandboxUrl: sandbox.url })
    : undefined;

  if (!full) {
    const sections = [
      ...(weight ? weightSection(weight) : []),
      ...(ttfq ? ttfqSection(ttfq) : []),
      ...(overhead ? overheadSection(overhead) : []),
    ];
    if (wants('load')) {
      const { load, memory } = await measureLoadAndMemory(backend, proxy, sandbox.url, memoryAtStart);
      sections.push(...loadSection(load), ...memorySection(memory));
    }
    console.log(`\n${sections.join('\n')}`);
    log(`done (${asked.join(', ')} only; bench/results.* left as they were)`);
  } else {
    const { load, memory, combos } = await measureLoadAndMemory(backend, proxy, sandbox.url, memoryAtStart);
    if (!weight || !ttfq || !overhead) throw new Error('a full run measures every part');
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
      load,
      overhead,
      memory,
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
