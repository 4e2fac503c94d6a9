/**
 * What observability costs a shopper: the quote route at 1000 quote requests/s on the built CLI (live against
 * the bench's sandbox, SQLite), once as it runs by default here (metrics off, access log off) and once with
 * METRICS=on, ACCESS_LOG=on and LOG_FORMAT=json (a JSON line per request, read off its stdout as a log shipper
 * would). Both processes run side by side, idle but for their turn; the rounds alternate (off then on, on then off, …)
 * on the same seeded stream, so the machine's other load falls on both alike. Each measured round follows WARM_SECONDS
 * of the same rate, not measured: a process that sat idle through the other's round has let its quote caches
 * expire, and its first seconds back cost more CPU than a process kept busy does (measured without: the round right
 * after its own cost about 25 % less than the one after the other's, which made each pair's ratio swing between
 * 0.87 and 1.5). Reported: CPU per answered quote (median of the rounds), the ratio of the two, p99 of the 2xx
 * answers, and each process's peak RSS.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  benchDir,
  type Child,
  procCpuSeconds,
  procMemory,
  resetPeakRss,
  round,
  sleep,
  startServer,
} from './lib.ts';
import { buildCombos, runLoad } from './load.ts';
import { observingShare, readProfile } from './profile.ts';

const RATE = 1000;
const ROUND_SECONDS = 10;
const WARM_SECONDS = 3;
const ROUNDS = 10;
const CONNECTIONS = 1000;
/** The load step's own length (bench/run.ts): each fresh process first runs it alone, for its memory goal. */
const LOAD_STEP_SECONDS = 20;
/** The profiled run of the "on" process (after a round's warm-up). */
const PROFILE_SECONDS = 15;
/** The load step's goals (README "Benchmarks"): CPU at most 5 % more, p99 and memory as the load step's. */
const GOALS = { cpuRatio: 1.05, p99Ms: 100, peakRssMb: 120 };

export interface ObservabilityVariant {
  label: string;
  env: Record<string, string>;
  rounds: Array<{
    answered: number;
    ok2xx: number;
    cpuSeconds: number;
    cpuPerQuoteUs: number;
    p99Ms: number;
  }>;
  cpuPerQuoteUs: number;
  p99Ms: number;
  /** Peak RSS over the load step's 20 s, on the fresh process (the load step's memory goal). */
  loadStepPeakRssMb: number | null;
  /** Peak RSS over every round and warm-up after it. */
  peakRssMb: number | null;
  logLines: number;
}

export interface ObservabilityResult {
  rate: number;
  roundSeconds: number;
  rounds: number;
  off: ObservabilityVariant;
  on: ObservabilityVariant;
  /** Median over the rounds of on ÷ off CPU per quote (each pair run back to back, so under the same load). */
  cpuRatio: number;
  /**
   * A third process, "on", under `node --cpu-prof` for PROFILE_SECONDS at the same rate: the share of its busy
   * time spent in observing code (profile.ts `observingShare`), and the ratio it implies, 1 ÷ (1 − share). The
   * share is read within one process, so the machine's other load moves it far less than the A/B ratio.
   */
  profiled: { seconds: number; busyS: number; share: number; gcShare: number; impliedRatio: number };
  /** The load average (1 min) when the step began and ended: on a busy machine every figure moves. */
  loadAverage: { start: number; end: number };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

export async function measureObservability(
  sandboxUrl: string,
  log: (line: string) => void,
): Promise<ObservabilityResult> {
  const variants: Array<{ label: string; env: Record<string, string> }> = [
    { label: 'metrics off, access log off', env: { METRICS: 'off', ACCESS_LOG: 'off' } },
    {
      label: 'METRICS=on (scraped every 15 s), ACCESS_LOG=on, LOG_FORMAT=json',
      env: {
        METRICS: 'on',
        METRICS_TOKEN: 'bench-metrics-token-0123456789',
        ACCESS_LOG: 'on',
        LOG_FORMAT: 'json',
      },
    },
  ];
  const loadAtStart = round(loadavg()[0] ?? 0);
  const children: Child[] = [];
  try {
    for (const variant of variants) {
      children.push(await startServer('cli', { BENCH_SANDBOX_URL: sandboxUrl, ...variant.env }));
    }
    const lineCounts = children.map(() => 0);
    children.forEach((child, index) => {
      child.process.stdout?.on('data', (chunk: Buffer) => {
        for (const byte of chunk) if (byte === 10) lineCounts[index] = (lineCounts[index] ?? 0) + 1;
      });
    });
    const combos = await buildCombos((children[0] as Child).url);
    await buildCombos((children[1] as Child).url);
    await sleep(1500);
    // The load step as bench/run.ts runs it (a fresh CLI, 1000/s for 20 s), on each process alone: its peak RSS is
    // the figure the load step's memory goal is about.
    const loadStepPeak: Array<number | null> = [];
    for (const [index, child] of children.entries()) {
      resetPeakRss(child.pid);
      log(`observability: ${variants[index]?.label}, the load step (${RATE}/s for ${LOAD_STEP_SECONDS} s)…`);
      await runLoad({
        label: `CLI, ${variants[index]?.label}, load step`,
        url: child.url,
        sandboxUrl,
        combos,
        rate: RATE,
        durationS: LOAD_STEP_SECONDS,
        connections: CONNECTIONS,
        seed: 20_261_127,
      });
      loadStepPeak.push(procMemory(child.pid)?.hwmMb ?? null);
    }
    for (const child of children) resetPeakRss(child.pid);
    // Prometheus's scrape of the "on" process, as a deployment would (every 15 s).
    const on = children[1] as Child;
    const scraper = setInterval(() => {
      fetch(`${on.url}/metrics`, { headers: { authorization: 'Bearer bench-metrics-token-0123456789' } })
        .then((response) => response.arrayBuffer())
        .catch(() => undefined);
    }, 15_000);
    const rounds: ObservabilityVariant['rounds'][] = children.map(() => []);
    try {
      for (let round_ = 0; round_ < ROUNDS; round_ += 1) {
        // Each variant goes first in every other round: the second of a pair does not always meet a warmer sandbox.
        const entries = [...children.entries()];
        for (const [index, child] of round_ % 2 ? entries.reverse() : entries) {
          log(
            `observability: round ${round_ + 1} of ${ROUNDS}, ${variants[index]?.label}, ${RATE}/s for ${ROUND_SECONDS} s…`,
          );
          await runLoad({
            label: `CLI, ${variants[index]?.label}, warming up`,
            url: child.url,
            sandboxUrl,
            combos,
            rate: RATE,
            durationS: WARM_SECONDS,
            connections: CONNECTIONS,
            seed: 20_261_200 + round_,
          });
          const cpuBefore = procCpuSeconds(child.pid);
          const run = await runLoad({
            label: `CLI, ${variants[index]?.label}`,
            url: child.url,
            sandboxUrl,
            combos,
            rate: RATE,
            durationS: ROUND_SECONDS,
            connections: CONNECTIONS,
            seed: 20_261_126 + round_,
          });
          const cpuSeconds = procCpuSeconds(child.pid) - cpuBefore;
          rounds[index]?.push({
            answered: run.answered,
            ok2xx: run.ok2xx,
            cpuSeconds: round(cpuSeconds),
            cpuPerQuoteUs: round((cpuSeconds / Math.max(1, run.answered)) * 1e6),
            p99Ms: run.latencyOkMs.p99,
          });
        }
      }
    } finally {
      clearInterval(scraper);
    }
    const result = children.map((child, index): ObservabilityVariant => {
      const own = rounds[index] ?? [];
      return {
        label: variants[index]?.label ?? '',
        env: variants[index]?.env ?? {},
        rounds: own,
        cpuPerQuoteUs: median(own.map((r) => r.cpuPerQuoteUs)),
        p99Ms: median(own.map((r) => r.p99Ms)),
        loadStepPeakRssMb: loadStepPeak[index] ?? null,
        peakRssMb: procMemory(child.pid)?.hwmMb ?? null,
        logLines: lineCounts[index] ?? 0,
      };
    });
    const [off, onResult] = result as [ObservabilityVariant, ObservabilityVariant];
    const ratios = off.rounds.map(
      (r, i) => (onResult.rounds[i]?.cpuPerQuoteUs ?? Number.NaN) / r.cpuPerQuoteUs,
    );
    // The profiled process runs alone: the two measured ones are done.
    await Promise.all(children.map((child) => child.stop()));
    const profiled = await profileObserving(sandboxUrl, combos, variants[1]?.env ?? {}, log);
    return {
      rate: RATE,
      roundSeconds: ROUND_SECONDS,
      rounds: ROUNDS,
      off,
      on: onResult,
      cpuRatio: round(median(ratios)),
      profiled,
      loadAverage: { start: loadAtStart, end: round(loadavg()[0] ?? 0) },
    };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}

/** The "on" configuration in a fresh process under `node --cpu-prof`: how much of its CPU goes to observing. */
async function profileObserving(
  sandboxUrl: string,
  combos: Awaited<ReturnType<typeof buildCombos>>,
  env: Record<string, string>,
  log: (line: string) => void,
): Promise<ObservabilityResult['profiled']> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-observing-'));
  const spawned = performance.now();
  // No drain on SIGTERM: the profile is written as the process exits, and the bench kills what takes over 3 s.
  const child = await startServer('cli', { BENCH_SANDBOX_URL: sandboxUrl, ...env, SHUTDOWN_DRAIN_MS: '0' }, [
    '--cpu-prof',
    `--cpu-prof-dir=${dir}`,
  ]);
  try {
    log(`observability: the "on" process under --cpu-prof, ${RATE}/s for ${PROFILE_SECONDS} s…`);
    const load = { url: child.url, sandboxUrl, combos, rate: RATE, connections: CONNECTIONS };
    await runLoad({ ...load, label: 'CLI, profiled, warming up', durationS: WARM_SECONDS, seed: 20_261_300 });
    // Everything before this (the start, the warm-up) is left out of the share.
    const skipS = (performance.now() - spawned) / 1000;
    await runLoad({ ...load, label: 'CLI, profiled', durationS: PROFILE_SECONDS, seed: 20_261_301 });
    await child.stop();
    const { busyS, share, gcShare } = observingShare(readProfile(dir), skipS);
    return { seconds: PROFILE_SECONDS, busyS, share, gcShare, impliedRatio: round(1 / (1 - share)) };
  } finally {
    await child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function observabilityMarkdown(result: ObservabilityResult): string {
  const { off, on } = result;
  const mark = (ok: boolean) => (ok ? '✓' : '✗');
  const row = (v: ObservabilityVariant) =>
    `| ${v.label} | ${v.cpuPerQuoteUs} µs | ${v.p99Ms} ms ${mark(v.p99Ms <= GOALS.p99Ms)} | ${v.loadStepPeakRssMb ?? '?'} MB ${mark((v.loadStepPeakRssMb ?? Infinity) <= GOALS.peakRssMb)} | ${v.peakRssMb ?? '?'} MB | ${v.rounds.map((r) => `${r.ok2xx}/${r.answered}`).join(', ')} | ${v.logLines} |`;
  return [
    `## What observability costs: ${result.rate} quote requests/s, metrics and JSON logs off vs on`,
    '',
    `The built CLI twice, side by side (live against the sandbox, SQLite). Each fresh process first runs the load ` +
      `step alone (${result.rate}/s for ${LOAD_STEP_SECONDS} s, its memory goal), then ${result.rounds} alternating rounds of ` +
      `${result.roundSeconds} s each on the same seeded Poisson stream, each after ${WARM_SECONDS} s at the same rate ` +
      `that are not measured; medians of the rounds. Load average (1 min) ` +
      `${result.loadAverage.start} at the start, ${result.loadAverage.end} at the end.`,
    '',
    `| variant | CPU per quote | p99 (2xx) | peak RSS, the load step (${LOAD_STEP_SECONDS} s, fresh) | peak RSS, the rounds after | 2xx / answered per round | lines written |`,
    '| --- | ---: | ---: | ---: | ---: | --- | ---: |',
    row(off),
    row(on),
    '',
    `CPU per quote, on ÷ off (median of the rounds' pairs): ${result.cpuRatio} (goal ≤ ${GOALS.cpuRatio} ${mark(result.cpuRatio <= GOALS.cpuRatio)}); ` +
      `the pairs: ${off.rounds.map((r, i) => round((on.rounds[i]?.cpuPerQuoteUs ?? Number.NaN) / r.cpuPerQuoteUs)).join(', ')}.`,
    '',
    `In a CPU profile of "on" (a fresh process, ${result.profiled.seconds} s at ${result.rate}/s after a warm-up, ` +
      `${result.profiled.busyS} s busy): the metrics, the logs and the access-log middleware take ` +
      `${round(result.profiled.share * 100)} % of its busy time, so "on" costs ${result.profiled.impliedRatio} × "off" ` +
      `(goal ≤ ${GOALS.cpuRatio} ${mark(result.profiled.impliedRatio <= GOALS.cpuRatio)}); the garbage collector, ` +
      `${round(result.profiled.gcShare * 100)} %, is not attributed.`,
    '',
  ].join('\n');
}

export function writeObservabilityResult(result: ObservabilityResult): void {
  writeFileSync(join(benchDir, 'observability-results.json'), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(
    join(benchDir, 'observability-results.md'),
    `# Bench: what observability costs\n\n${observabilityMarkdown(result)}`,
  );
}
