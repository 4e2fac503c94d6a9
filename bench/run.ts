/**
 * `npm run bench`: what a merchant and a shopper pay, each figure beside a reference measured in the same run.
 * Writes bench/results.json and bench/results.md. Nothing here asserts a timing; the goals are reported as met
 * or not. Every server runs in a process of its own (bench/server.ts), on loopback, with bounded load.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
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
import { type Results, renderMarkdown } from './report.ts';
import { measureTtfq } from './ttfq.ts';
import { measureWeight } from './weight.ts';

const LOAD_RATE = 1000;
const LOAD_SECONDS = 20;
const LOAD_CONNECTIONS = 1000;
const TTFQ_LOADS = 20;

const started = performance.now();
const loadAverageAtStart = loadavg().map(round);
const log = (line: string) =>
  console.log(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${line}`);

function git(args: string[]): string {
  return spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout.trim();
}

log('building the widget (npm run build -w packages/widget)…');
const build = spawnSync('npm', ['run', 'build', '-w', 'packages/widget'], {
  cwd: root,
  encoding: 'utf8',
});
const widgetBuild = {
  ok: build.status === 0,
  output: `${build.stdout}${build.stderr}`
    .split('\n')
    .filter((line) => /crypto-checkout\.js|error|Error/.test(line))
    .slice(0, 5),
};
if (!widgetBuild.ok) log(`widget build FAILED; measuring the dist already there:\n${build.stderr}`);

log('weight: bundling the npm entry and the floor with Vite…');
const weight = await measureWeight();

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

  log(`time to first quote: ${TTFQ_LOADS} cold + ${TTFQ_LOADS} warm page loads in Chromium…`);
  const ttfq = await measureTtfq(backend.url, TTFQ_LOADS);

  log('overhead: catalog vs hello throughput, proxied vs direct quote latency…');
  const overhead = await measureOverhead({
    backendUrl: backend.url,
    helloUrl: hello.url,
    sandboxUrl: sandbox.url,
  });

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
    sandboxUrl: sandbox.url,
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
    ttfq: { browser: ttfq.browser, cold: ttfq.cold, warm: ttfq.warm },
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
    overhead,
    memory: {
      rssAtStartMb: memoryAtStart?.rssMb ?? null,
      rssBeforeLoadMb: memoryBeforeLoad?.rssMb ?? null,
      peakRssDuringLoadMb: peakReset ? (memoryAfterLoad?.hwmMb ?? null) : null,
      peakRssSinceStartMb: peakReset ? null : (memoryAfterLoad?.hwmMb ?? null),
      sampledPeakRssMb,
      rssAfterLoadMb: memoryAfterLoad?.rssMb ?? null,
      peakResetWorked: peakReset,
    },
    combos,
  };
  results.meta.durationS = round((performance.now() - started) / 1000);
  writeFileSync(join(benchDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(benchDir, 'results.md'), renderMarkdown(results));
  log(`done in ${results.meta.durationS} s: bench/results.json, bench/results.md`);
} finally {
  await stopAll();
}
