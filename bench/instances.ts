/**
 * The three-instance series: three backends (the built CLI, one process each) on one PostgreSQL and one Redis,
 * 1,000 quote requests/s spread over them (one Poisson stream of 333/s per instance, bench/open-loop.ts, the
 * same shopper mix as the single-instance load). Counted at the upstream (the sandbox, behind a 20–80 ms transit):
 * the busiest sliding second and its 429s. The goal: at most UPSTREAM_BUDGET (90) calls in any second, 0 429s.
 *
 * `npm run bench -- instances` runs it alone; it writes bench/instances-results.json and .md.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Cluster, startCluster } from '../packages/backend/test/instance-cluster.ts';
import { mostInWindow } from '../packages/backend/test/support.ts';
import { benchDir, round, sleep } from './lib.ts';
import { amountOf, answerKind, buildCombos, type Combo } from './load.ts';
import { openLoop } from './open-loop.ts';
import { prng } from './prng.ts';

const RATE = 1000;
const SECONDS = 20;
const INSTANCES = 3;

export interface InstancesResult {
  settings: { rate: number; durationS: number; instances: number; upstreamBudget: number; transitMs: string };
  answers: Record<string, number>;
  sent: number;
  answered: number;
  socketErrors: number;
  upstream: { calls: number; busiestSecond: number; throttled429: number; perSecond: number[] };
  goalMet: boolean;
}

/** One instance's share of the shoppers: a Poisson stream at `rate` (bench/open-loop.ts), answers counted by kind. */
async function stream(
  url: string,
  combos: Combo[],
  rate: number,
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
    connections: 300,
    seed: seed + 1,
    body: () => {
      const combo = combos[Math.floor(random() * combos.length)] as Combo;
      return JSON.stringify({ ...combo, fiatAmount: amountOf(random) });
    },
  });
  for (const { status, body } of arrivals) {
    if (status === 0) continue;
    const key = answerKind(status, body);
    answers.set(key, (answers.get(key) ?? 0) + 1);
  }
  return { sent: arrivals.length, errors: arrivals.filter((arrival) => arrival.status === 0).length };
}

export async function measureInstances(log: (line: string) => void): Promise<InstancesResult> {
  log(`instances: starting PostgreSQL, Redis, the sandbox and ${INSTANCES} backends…`);
  const cluster: Cluster = await startCluster({
    size: INSTANCES,
    rampTransitMs: () => 20 + Math.random() * 60,
  });
  try {
    log('instances: 50 combinations (each priced once, paced)…');
    const combos = await buildCombos((cluster.instances[0] as Cluster['instances'][number]).url);
    await sleep(1100);
    cluster.ramp.arrivals.length = 0;
    cluster.ramp.throttled = 0;
    log(`instances: ${RATE} quote requests/s for ${SECONDS} s, a third to each of ${INSTANCES} instances…`);
    const answers = new Map<string, number>();
    const results = await Promise.all(
      cluster.instances.map((instance, index) =>
        stream(instance.url, combos, RATE / INSTANCES, 20_261_125 + index, answers),
      ),
    );
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
        rate: RATE,
        durationS: SECONDS,
        instances: INSTANCES,
        upstreamBudget: 90,
        transitMs: '20–80 (uniform) before each ramp call reaches the sandbox',
      },
      answers: Object.fromEntries([...answers].sort()),
      sent: results.reduce((sum, result) => sum + result.sent, 0),
      answered: [...answers.values()].reduce((sum, count) => sum + count, 0),
      socketErrors: results.reduce((sum, result) => sum + result.errors, 0),
      upstream: {
        calls: arrivals.length,
        busiestSecond,
        throttled429: cluster.ramp.throttled,
        perSecond: Array.from(perSecond, (count) => count ?? 0),
      },
      goalMet: busiestSecond <= 90 && cluster.ramp.throttled === 0,
    };
  } finally {
    await cluster.close();
  }
}

export function instancesMarkdown(result: InstancesResult): string {
  const { settings, upstream } = result;
  return [
    '## Three instances on one PostgreSQL and one Redis',
    '',
    `${settings.rate} quote requests/s for ${settings.durationS} s, a Poisson stream of a third of it to each of ${settings.instances} instances ` +
      `(the built CLI, one process each; UPSTREAM_BUDGET ${settings.upstreamBudget}); transit ${settings.transitMs}.`,
    '',
    '| measure | value | goal |',
    '| --- | --- | --- |',
    `| busiest upstream second (sliding) | ${upstream.busiestSecond} | ≤ 90 ${upstream.busiestSecond <= 90 ? '✓' : '✗'} |`,
    `| upstream 429s | ${upstream.throttled429} | 0 ${upstream.throttled429 === 0 ? '✓' : '✗'} |`,
    `| upstream calls in all | ${upstream.calls} (${round(upstream.calls / settings.durationS)}/s on average) | |`,
    `| requests sent / answered | ${result.sent} / ${result.answered} | |`,
    `| answers | ${Object.entries(result.answers)
      .map(([key, count]) => `${key}: ${count}`)
      .join(', ')} | |`,
    `| socket errors | ${result.socketErrors} | |`,
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
