/**
 * A freshly started backend under load (issue 47, part 4): 1,000 quote requests/s arriving independently (Poisson,
 * bench/open-loop.ts, timed from each request's due time), sent from the moment the instance says it is ready
 * (`/readyz` 200, as a load balancer would), per second: p99 and the share quoted. Two series:
 * - one instance, the built CLI on SQLite, the sandbox in a process of its own (the split topology);
 * - three instances on PostgreSQL + Redis started together (bench/instances.ts's cluster, 20–80 ms transit).
 * Each is reported cold (its first seconds) beside warm (its last seconds), with the readiness delay (from its
 * "listening" line to `/readyz` 200: the warm start, quotes/warm-start/) and its warm-start log line.
 *
 * `npm run bench -- cold` runs it alone; it writes bench/cold-start-results.json and .md.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type Cluster, startCluster } from '../packages/backend/test/instance-cluster.ts';
import { benchDir, quantile, round, sleep, startServer } from './lib.ts';
import { amountOf, buildCombos, type Combo } from './load.ts';
import { type Arrival, openLoop } from './open-loop.ts';
import { prng } from './prng.ts';

const RATE = 1000;
const SECONDS = 15;
const CONNECTIONS = 1000;
/** Seconds counted as warm: the last ones of the run. */
const WARM_FROM = 10;

export interface SecondFigures {
  second: number;
  sent: number;
  quotedPercent: number;
  p99Ms: number | null;
}

export interface ColdSeries {
  label: string;
  instances: number;
  /** From the "listening" line (three instances: the last one's) to `/readyz` 200, per instance (ms). */
  readinessDelayMs: number[];
  warmStartLines: string[];
  perSecond: SecondFigures[];
  /** Seconds 1–WARM_FROM, then WARM_FROM+1 to the end. */
  cold: { quotedPercent: number; p99Ms: number | null; worstSecondP99Ms: number | null };
  warm: { quotedPercent: number; p99Ms: number | null };
  loadAverage: number[];
}

const stream = (url: string, combos: Combo[], rate: number, connections: number, seed: number) => {
  const random = prng(seed);
  return openLoop({
    url,
    method: 'POST',
    path: '/api/quotes/buy',
    headers: { 'content-type': 'application/json' },
    rate,
    durationS: SECONDS,
    connections,
    seed: seed + 1,
    body: () => {
      const combo = combos[Math.floor(random() * combos.length)] as Combo;
      return JSON.stringify({ ...combo, fiatAmount: amountOf(random) });
    },
  });
};

function figures(arrivals: Arrival[]): Pick<ColdSeries, 'perSecond' | 'cold' | 'warm'> {
  const bySecond = new Map<number, Arrival[]>();
  for (const arrival of arrivals) {
    const second = Math.floor(arrival.dueMs / 1000) + 1;
    bySecond.set(second, [...(bySecond.get(second) ?? []), arrival]);
  }
  const summary = (list: Arrival[]) => {
    const quoted = list.filter((arrival) => arrival.status >= 200 && arrival.status < 300);
    const latencies = quoted.map((arrival) => arrival.doneMs - arrival.dueMs);
    return {
      quotedPercent: list.length ? round((quoted.length / list.length) * 100) : 0,
      p99Ms: latencies.length ? round(quantile(latencies, 0.99)) : null,
    };
  };
  const perSecond = [...bySecond.entries()]
    .sort(([a], [b]) => a - b)
    .map(([second, list]) => ({ second, sent: list.length, ...summary(list) }));
  const coldSeconds = perSecond.filter((entry) => entry.second <= WARM_FROM);
  return {
    perSecond,
    cold: {
      ...summary(arrivals.filter((arrival) => arrival.dueMs < WARM_FROM * 1000)),
      worstSecondP99Ms: Math.max(...coldSeconds.map((entry) => entry.p99Ms ?? Number.POSITIVE_INFINITY)),
    },
    warm: summary(arrivals.filter((arrival) => arrival.dueMs >= WARM_FROM * 1000)),
  };
}

/** Polls `/readyz` until 200; how long after `since` it said so. */
async function readyAfter(url: string, since: number): Promise<number> {
  for (;;) {
    const response = await fetch(`${url}/readyz`).catch(() => undefined);
    await response?.body?.cancel();
    if (response?.status === 200) return round(performance.now() - since);
    await sleep(20);
  }
}

async function single(log: (line: string) => void): Promise<{ series: ColdSeries; combos: Combo[] }> {
  const sandbox = await startServer('sandbox');
  try {
    log('cold: the 50 combinations, from a scout instance (stopped before the measured one starts)…');
    const scout = await startServer('cli', { BENCH_SANDBOX_URL: sandbox.url });
    const combos = await buildCombos(scout.url);
    await scout.stop();
    // The scout's references must not serve the measured instance: they stay in its process, gone with it.
    await sleep(1100);
    log('cold: a fresh instance (SQLite), 1,000 quote requests/s from /readyz 200…');
    const fresh = await startServer('cli', { BENCH_SANDBOX_URL: sandbox.url });
    const startedAt = performance.now();
    const output: string[] = [];
    fresh.process.stdout?.on('data', (chunk: Buffer) => output.push(...chunk.toString().split('\n')));
    try {
      const delay = await readyAfter(fresh.url, startedAt);
      const arrivals = await stream(fresh.url, combos, RATE, CONNECTIONS, 20_261_207);
      return {
        combos,
        series: {
          label: 'one instance, SQLite, split sandbox',
          instances: 1,
          readinessDelayMs: [delay],
          warmStartLines: output.filter((line) => line.includes('[warm-start]')),
          ...figures(arrivals),
          loadAverage: loadavg().map(round),
        },
      };
    } finally {
      await fresh.stop();
    }
  } finally {
    await sandbox.stop();
  }
}

async function three(log: (line: string) => void, combos: Combo[]): Promise<ColdSeries> {
  log(
    'cold: three fresh instances on PostgreSQL + Redis, 1,000 quote requests/s over them from /readyz 200…',
  );
  const cluster: Cluster = await startCluster({ size: 3, rampTransitMs: () => 20 + Math.random() * 60 });
  // From when the last of them listens (they start one after the other: the first runs the migrations).
  const startedAt = performance.now();
  try {
    const delays = await Promise.all(
      cluster.instances.map((instance) => readyAfter(instance.url, startedAt)),
    );
    const arrivals = (
      await Promise.all(
        cluster.instances.map((instance, index) =>
          stream(instance.url, combos, RATE / 3, Math.round(CONNECTIONS / 3), 20_261_307 + index),
        ),
      )
    ).flat();
    return {
      label: 'three instances, PostgreSQL + Redis',
      instances: 3,
      readinessDelayMs: delays,
      warmStartLines: cluster.instances.flatMap((instance) =>
        instance
          .output()
          .split('\n')
          .filter((line) => line.includes('[warm-start]')),
      ),
      ...figures(arrivals),
      loadAverage: loadavg().map(round),
    };
  } finally {
    await cluster.close();
  }
}

export async function measureColdStart(log: (line: string) => void): Promise<ColdSeries[]> {
  const { series, combos } = await single(log);
  return [series, await three(log, combos)];
}

export function coldStartMarkdown(series: ColdSeries[]): string {
  const rows = series.flatMap((entry) => [
    `### ${entry.label}`,
    '',
    `Readiness delay (listening → /readyz 200): ${entry.readinessDelayMs.map((ms) => `${ms} ms`).join(', ')}; load average after: ${entry.loadAverage.join(' ')}`,
    '',
    ...entry.warmStartLines.map((line) => `    ${line.slice(0, 400)}`),
    '',
    `| | quoted | p99 |`,
    '| --- | --- | --- |',
    `| cold (seconds 1–${WARM_FROM}) | ${entry.cold.quotedPercent} % | ${entry.cold.p99Ms} ms (worst second ${entry.cold.worstSecondP99Ms} ms) |`,
    `| warm (seconds ${WARM_FROM + 1}–${SECONDS}) | ${entry.warm.quotedPercent} % | ${entry.warm.p99Ms} ms |`,
    '',
    '| second | sent | quoted | p99 |',
    '| --- | --- | --- | --- |',
    ...entry.perSecond.map((s) => `| ${s.second} | ${s.sent} | ${s.quotedPercent} % | ${s.p99Ms} ms |`),
    '',
  ]);
  return [
    '# A freshly started backend at 1,000 quote requests/s (`npm run bench -- cold`)',
    '',
    "Poisson arrivals timed from each request's due time, sent from the moment `/readyz` says ready. Goals (issue 47): p99 ≤ 250 ms in every second from the first, 100 % quoted alone; ≥ 99 % quoted from the first second over three instances.",
    '',
    ...rows,
  ].join('\n');
}

export function writeColdStartResult(series: ColdSeries[]): void {
  writeFileSync(join(benchDir, 'cold-start-results.json'), `${JSON.stringify(series, null, 2)}\n`);
  writeFileSync(join(benchDir, 'cold-start-results.md'), `${coldStartMarkdown(series)}\n`);
}
