/**
 * Rolling restarts at 1,000 quote requests/s: the deployment of packages/backend/test/rolling-restart.test.ts
 * (three backends, the built CLI, on one PostgreSQL and one Redis, one standalone sandbox, Debian's HAProxy with
 * deploy/haproxy.cfg as shipped) under a Poisson stream of 1,000 quote requests/s and 10 orders/s through HAProxy,
 * each order's status stream followed and the order paid, while each instance in turn gets SIGTERM and is started
 * again, then one gets SIGKILL. Reported: failed requests and latency during the graceful restarts, during the
 * SIGKILL (from the kill until HAProxy counts the instance back up), and outside both; streams that saw the final
 * status; orders per Idempotency-Key upstream; events lost or delivered again.
 *
 * `npm run bench -- rolling` runs it alone; it writes bench/rolling-results.json and .md.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import {
  type Attempt,
  answeredAnOrder,
  during,
  type Phase,
  rollingRestart,
  shoppers,
  startDeployment,
} from '../packages/backend/test/rolling.ts';
import { waitFor } from '../packages/backend/test/servers.ts';
import { benchDir, quantile, round, sleep } from './lib.ts';
import { amountOf, buildCombos, type Combo } from './load.ts';
import { prng } from './prng.ts';

const QUOTE_RATE = 1000;
const ORDER_RATE = 10;
/** Sockets the shoppers may open for quotes and orders (status streams have one each). */
const CONNECTIONS = 1000;
/** Load before the first restart and after the last, in seconds. */
const STEADY_S = 5;

interface Window {
  quotes: number;
  quotesFailed: number;
  /** Of the answered quotes, from when each was due (ms). */
  latencyMs: { p50: number; p99: number; max: number };
  orders: number;
  ordersFailed: number;
  /** The first few failures, as answered. */
  failures: string[];
}

export interface RollingResult {
  settings: { quoteRate: number; orderRate: number; connections: number; drainMs: number; haproxy: string };
  /** The machine's load average (1, 5, 15 min) when the step began and ended: the cores are shared. */
  loadAverage: { start: number[]; end: number[] };
  restarts: Array<{ kind: string; instance: string; seconds: number; exitCode?: number | null }>;
  graceful: Window;
  sigkill: Window;
  outside: Window;
  streams: {
    followed: number;
    sawFinal: number;
    connections: number;
    endedWithRetryHint: number;
    cutOrRefused: number;
  };
  orders: { created: number; withOneUpstreamOrder: number; replayedSame: number };
  events: {
    expected: number;
    received: number;
    deliveries: number;
    deliveredAgain: number;
    idsPerEvent: number;
  };
}

function window(quotes: Attempt[], orders: Attempt[]): Window {
  const answered = quotes.filter((quote) => quote.status === 200).map((quote) => quote.doneAt - quote.dueAt);
  const failed = [...quotes, ...orders].filter((attempt) => attempt.status !== 200 && attempt.status !== 201);
  return {
    quotes: quotes.length,
    quotesFailed: quotes.filter((quote) => quote.status !== 200).length,
    latencyMs: {
      p50: round(quantile(answered, 0.5)),
      p99: round(quantile(answered, 0.99)),
      max: round(Math.max(0, ...answered)),
    },
    orders: orders.length,
    ordersFailed: orders.filter((order) => !answeredAnOrder(order)).length,
    failures: failed.slice(0, 5).map((attempt) => `${attempt.status} ${attempt.body.slice(0, 120)}`),
  };
}

export async function measureRolling(log: (line: string) => void): Promise<RollingResult> {
  const loadAtStart = loadavg().map(round);
  log('rolling: PostgreSQL, Redis, the sandbox, three backends and HAProxy (deploy/haproxy.cfg)…');
  const deployment = await startDeployment({ haproxyLog: false });
  try {
    log('rolling: 50 combinations (each priced once, paced)…');
    const combos = await buildCombos(deployment.front);
    await sleep(1100);
    const random = prng(20_261_126);
    const traffic = shoppers({
      front: deployment.front,
      quoteRate: QUOTE_RATE,
      quoteBody: () => {
        const combo = combos[Math.floor(random() * combos.length)] as Combo;
        return JSON.stringify({ ...combo, fiatAmount: amountOf(random) });
      },
      orderRate: ORDER_RATE,
      payAfterMs: () => 3000 + random() * 5000,
      pay: (id) => deployment.pay(id),
      connections: CONNECTIONS,
    });
    let phases: Phase[] = [];
    try {
      log(
        `rolling: ${QUOTE_RATE} quotes/s and ${ORDER_RATE} orders/s through HAProxy; restarts in ${STEADY_S} s…`,
      );
      await sleep(STEADY_S * 1000);
      phases = await rollingRestart(deployment, { killIndex: 1, log: (line) => log(`rolling: ${line}`) });
      await sleep(STEADY_S * 1000);
    } finally {
      log('rolling: stopping the shoppers (each stream to its final status)…');
      await traffic.stop();
    }
    const kind = (attempt: Attempt) => during(phases, attempt.dueAt)?.kind;
    const part = (which: 'SIGTERM' | 'SIGKILL' | undefined) =>
      window(
        traffic.quotes.filter((quote) => kind(quote) === which),
        traffic.orders.map((order) => order.attempt).filter((attempt) => kind(attempt) === which),
      );

    const created = traffic.orders.filter((order) => order.orderId);
    log(`rolling: checking ${created.length} orders upstream and their replays…`);
    let withOneUpstreamOrder = 0;
    let replayedSame = 0;
    for (const order of created) {
      if ((await deployment.upstreamOrdersFor(order.orderId as string)) === 1) withOneUpstreamOrder += 1;
      const replay = await fetch(`${deployment.front}/api/orders`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: 'https://shop.example',
          'idempotency-key': order.key,
        },
        body: JSON.stringify({ product: 'hoodie' }),
      });
      const body = (await replay.json()) as { orderId?: string };
      if (replay.status === 200 && body.orderId === order.orderId) replayedSame += 1;
    }
    const expected = new Set(
      created.flatMap((order) => [`${order.orderId} order.created`, `${order.orderId} order.paid`]),
    );
    const received = () =>
      new Set(deployment.deliveries.map((d) => `${d.orderId} ${d.type}`).filter((e) => expected.has(e)));
    await waitFor(
      async () => {
        if (received().size < expected.size) throw new Error(`${received().size} of ${expected.size}`);
      },
      'every event delivered',
      180_000,
    ).catch((error: Error) => log(`rolling: ${error.message}`));
    const ids = new Map<string, Set<string>>();
    for (const d of deployment.deliveries) {
      const event = `${d.orderId} ${d.type}`;
      ids.set(event, (ids.get(event) ?? new Set()).add(d.id));
    }
    const distinctIds = new Set(deployment.deliveries.map((d) => d.id)).size;
    const connections = created.flatMap((order) => order.connections);
    return {
      settings: {
        quoteRate: QUOTE_RATE,
        orderRate: ORDER_RATE,
        connections: CONNECTIONS,
        drainMs: 5000,
        haproxy: 'deploy/haproxy.cfg as shipped (check every 1 s, fall 2, rise 2; retries 3, redispatch)',
      },
      loadAverage: { start: loadAtStart, end: loadavg().map(round) },
      restarts: phases.map((phase) => ({
        kind: phase.kind,
        instance: phase.instance,
        seconds: round((phase.to - phase.from) / 1000),
        ...(phase.kind === 'SIGTERM' ? { exitCode: phase.exitCode } : {}),
      })),
      graceful: part('SIGTERM'),
      sigkill: part('SIGKILL'),
      outside: part(undefined),
      streams: {
        followed: created.length,
        sawFinal: created.filter((order) => order.statuses.at(-1) === 'paid').length,
        connections: connections.length,
        endedWithRetryHint: connections.filter((c) => c.ending === 'retry').length,
        cutOrRefused: connections.filter((c) => c.ending === 'cut' || c.ending === 'refused').length,
      },
      orders: { created: created.length, withOneUpstreamOrder, replayedSame },
      events: {
        expected: expected.size,
        received: received().size,
        deliveries: deployment.deliveries.length,
        deliveredAgain: deployment.deliveries.length - distinctIds,
        idsPerEvent: Math.max(0, ...[...ids.values()].map((set) => set.size)),
      },
    };
  } finally {
    await deployment.close();
  }
}

const row = (name: string, w: Window) =>
  `| ${name} | ${w.quotesFailed} of ${w.quotes} | ${w.latencyMs.p50} / ${w.latencyMs.p99} / ${w.latencyMs.max} ms | ${w.ordersFailed} of ${w.orders} |`;

export function rollingMarkdown(result: RollingResult): string {
  const { settings, streams, orders, events } = result;
  const failures = [
    ...result.graceful.failures.map((f) => `graceful: ${f}`),
    ...result.sigkill.failures.map((f) => `SIGKILL: ${f}`),
    ...result.outside.failures.map((f) => `outside: ${f}`),
  ];
  return [
    `## Rolling restarts behind HAProxy, ${settings.quoteRate} quote requests/s`,
    '',
    `${settings.quoteRate} quote requests/s (Poisson) and ${settings.orderRate} orders/s through HAProxy (${settings.haproxy}) ` +
      `to three instances (the built CLI; PostgreSQL, Redis, one standalone sandbox; SHUTDOWN_DRAIN_MS ${settings.drainMs}); ` +
      'each order followed on its status stream (reconnecting as the element does) and paid 3–8 s after it was made. ' +
      `Restarts: ${result.restarts
        .map(
          (r) =>
            `${r.kind} ${r.instance} (back in rotation after ${r.seconds} s${r.exitCode === undefined ? '' : `, exit ${r.exitCode}`})`,
        )
        .join(', ')}. Latency is timed from when each request was due. ` +
      `Load average (1 min) ${result.loadAverage.start[0]} at the start, ${result.loadAverage.end[0]} at the end, on ${cpus().length} cores.`,
    '',
    '| requests due | quotes failed | quote latency p50 / p99 / max | orders failed |',
    '| --- | --- | --- | --- |',
    row('during the graceful restarts (SIGTERM until back in rotation)', result.graceful),
    row('during the SIGKILL (kill until back in rotation)', result.sigkill),
    row('outside the restarts', result.outside),
    '',
    '| after | value |',
    '| --- | --- |',
    `| status streams that saw the order paid | ${streams.sawFinal} of ${streams.followed} (${streams.connections} connections; ${streams.endedWithRetryHint} ended with the retry hint, ${streams.cutOrRefused} cut or refused) |`,
    `| orders with exactly one upstream order / whose key answers the same order again | ${orders.withOneUpstreamOrder} / ${orders.replayedSame} of ${orders.created} |`,
    `| events received (deduped by webhook-id) / deliveries / delivered again / most ids for one event | ${events.received} of ${events.expected} / ${events.deliveries} / ${events.deliveredAgain} / ${events.idsPerEvent} |`,
    '',
    ...(failures.length
      ? ['Failures (first few):', '', ...failures.map((f) => `- ${f.replace(/\s+/g, ' ')}`), '']
      : []),
  ].join('\n');
}

export function writeRollingResult(result: RollingResult): void {
  writeFileSync(join(benchDir, 'rolling-results.json'), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(
    join(benchDir, 'rolling-results.md'),
    `# Bench: rolling restarts\n\n${rollingMarkdown(result)}`,
  );
}
