/**
 * Several backends (the built CLI, one process each) on one PostgreSQL and one Redis, the load spread over them
 * (one Poisson stream per instance, bench/open-loop.ts, the same shopper mix as the single-instance load), in two
 * series:
 * - 1,000 quote requests/s over three instances: counted at the upstream (the sandbox, behind a 20–80 ms
 *   transit), the busiest sliding second and its 429s. The goal: at most UPSTREAM_BUDGET (90) calls in any
 *   second, 0 429s: the budget is shared.
 * - 5,000 quote requests/s over two instances: what one process cannot answer on its core (bench/results.md,
 *   section 3), two answer, with the same budget.
 *
 * `npm run bench -- instances` runs it alone; it writes bench/instances-results.json and .md.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Cluster, startCluster } from '../packages/backend/test/instance-cluster.ts';
import { mostInWindow } from '../packages/backend/test/support.ts';
import { benchDir, quantile, round, sleep } from './lib.ts';
import { amountOf, answerKind, buildCombos, type Combo } from './load.ts';
import { openLoop } from './open-loop.ts';
import { prng } from './prng.ts';

const SECONDS = 20;
/** Sockets the load generator may open, over all instances (as the single-instance load: 1000). */
const CONNECTIONS = 1000;
const SERIES = [
  { rate: 1000, instances: 3 },
  { rate: 5000, instances: 2 },
] as const;

export interface SeriesResult {
  settings: { rate: number; durationS: number; instances: number; upstreamBudget: number; transitMs: string };
  answers: Record<string, number>;
  sent: number;
  answered: number;
  socketErrors: number;
  /** Answered with a quote (2xx), of those sent. */
  quoted: number;
  /** Of the quotes, timed from when each request was due (ms). */
  latencyMs: { p50: number; p99: number };
  upstream: { calls: number; busiestSecond: number; throttled429: number; perSecond: number[] };
  goalMet: boolean;
}

export interface InstancesResult {
  series: SeriesResult[];
}

/** One instance's share of the shoppers: a Poisson stream at `rate` (bench/open-loop.ts), answers counted by kind. */
async function stream(
  url: string,
  combos: Combo[],
  rate: number,
  connections: number,
  seed: number,
  answers: Map<string, number>,
) {
  const random = prng(seed);
  const arrivals = await openLoop({
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
  const quoteMs: number[] = [];
  for (const { status, body, dueMs, doneMs } of arrivals) {
    if (status === 0) continue;
    if (status < 300) quoteMs.push(doneMs - dueMs);
    const key = answerKind(status, body);
    answers.set(key, (answers.get(key) ?? 0) + 1);
  }
  return {
    sent: arrivals.length,
    errors: arrivals.filter((arrival) => arrival.status === 0).length,
    quoteMs,
  };
}

export async function measureInstances(log: (line: string) => void): Promise<InstancesResult> {
  const series: SeriesResult[] = [];
  for (const { rate, instances } of SERIES) series.push(await measureSeries(log, rate, instances));
  return { series };
}

async function measureSeries(
  log: (line: string) => void,
  rate: number,
  instances: number,
): Promise<SeriesResult> {
  log(`instances: starting PostgreSQL, Redis, the sandbox and ${instances} backends…`);
  const cluster: Cluster = await startCluster({
    size: instances,
    rampTransitMs: () => 20 + Math.random() * 60,
  });
  try {
    log('instances: 50 combinations (each priced once, paced)…');
    const combos = await buildCombos((cluster.instances[0] as Cluster['instances'][number]).url);
    await sleep(1100);
    cluster.ramp.arrivals.length = 0;
    cluster.ramp.throttled = 0;
    log(`instances: ${rate} quote requests/s for ${SECONDS} s, spread over ${instances} instances…`);
    const answers = new Map<string, number>();
    const results = await Promise.all(
      cluster.instances.map((instance, index) =>
        stream(
          instance.url,
          combos,
          rate / instances,
          Math.round(CONNECTIONS / instances),
          20_261_125 + index,
          answers,
        ),
      ),
    );
    const quoteMs = results.flatMap((result) => result.quoteMs);
    const sent = results.reduce((sum, result) => sum + result.sent, 0);
    await sleep(200);
    const arrivals = [...cluster.ramp.arrivals].sort((a, b) => a - b);
    const origin = arrivals[0] ?? 0;
    const perSecond: number[] = [];
    for (const at of arrivals) {
      const second = Math.floor((at - origin) / 1000);
      perSecond[second] = (perSecond[second] ?? 0) + 1;
    }
    const busiestSecond = mostInWindow(arrivals, 1000);
    return {
      settings: {
        rate,
        durationS: SECONDS,
        instances,
        upstreamBudget: 90,
        transitMs: '20–80 (uniform) before each ramp call reaches the sandbox',
      },
      answers: Object.fromEntries([...answers].sort()),
      sent,
      answered: [...answers.values()].reduce((sum, count) => sum + count, 0),
      socketErrors: results.reduce((sum, result) => sum + result.errors, 0),
      quoted: quoteMs.length,
      latencyMs: { p50: round(quantile(quoteMs, 0.5)), p99: round(quantile(quoteMs, 0.99)) },
      upstream: {
        calls: arrivals.length,
        busiestSecond,
        throttled429: cluster.ramp.throttled,
        perSecond: Array.from(perSecond, (count) => count ?? 0),
      },
      goalMet: busiestSecond <= 90 && cluster.ramp.throttled === 0 && quoteMs.length === sent,
    };
  } finally {
    await cluster.close();
  }
}

export function instancesMarkdown(result: InstancesResult): string {
  return result.series.map(seriesMarkdown).join('\n');
}

function seriesMarkdown(result: SeriesResult): string {
  const { settings, upstream } = result;
  const share = result.sent ? round((100 * result.quoted) / result.sent) : 0;
  const count = ['', 'One', 'Two', 'Three', 'Four'][settings.instances] ?? String(settings.instances);
  return [
    `## ${count} instances on one PostgreSQL and one Redis, ${settings.rate} quote requests/s`,
    '',
    `${settings.rate} quote requests/s for ${settings.durationS} s, a Poisson stream of an equal share to each of ${settings.instances} instances ` +
      `(the built CLI, one process each; UPSTREAM_BUDGET ${settings.upstreamBudget}; at most ${CONNECTIONS} sockets in all); transit ${settings.transitMs}.`,
    '',
    '| measure | value | goal |',
    '| --- | --- | --- |',
    `| answered with a quote | ${result.quoted} of ${result.sent} (${share} %) | 100 % ${result.quoted === result.sent ? '✓' : '✗'} |`,
    `| latency of the quotes p50 / p99 (from when each was due) | ${result.latencyMs.p50} / ${result.latencyMs.p99} ms | |`,
    `| busiest upstream second (sliding) | ${upstream.busiestSecond} | ≤ 90 ${upstream.busiestSecond <= 90 ? '✓' : '✗'} |`,
    `| upstream 429s | ${upstream.throttled429} | 0 ${upstream.throttled429 === 0 ? '✓' : '✗'} |`,
    `| upstream calls in all | ${upstream.calls} (${round(upstream.calls / settings.durationS)}/s on average) | |`,
    `| requests sent / answered | ${result.sent} / ${result.answered} | |`,
    `| answers | ${Object.entries(result.answers)
      .map(([key, n]) => `${key}: ${n}`)
      .join(', ')} | |`,
    `| socket errors or timeouts | ${result.socketErrors} | |`,
    '',
    `Upstream calls per calendar second: ${upstream.perSecond.join(' ')}`,
    '',
  ].join('\n');
}

export function writeInstancesResult(result: InstancesResult): void {
  writeFileSync(join(benchDir, 'instances-results.json'), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(
    join(benchDir, 'instances-results.md'),
    `# Bench: several instances\n\n${instancesMarkdown(result)}`,
  );
}
