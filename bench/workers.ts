/**
 * `npm run bench -- workers`: the quote rate one Worker isolate answers in Miniflare (workerd on this machine,
 * the backend's Durable Object holding the app, the sandbox as its upstream in the same object) beside the built
 * CLI on Node (the embedded sandbox as its upstream): the same closed loop against each in turn, POST
 * /api/quotes/buy with the load step's shopper mix, access log off in both (a Worker's lines go through
 * console.log, the command's to a buffered stdout, which would measure the logs rather than the quotes).
 *
 * Miniflare is workerd, Cloudflare's runtime, but not Cloudflare's network: the figure says what one isolate's
 * CPU answers here, not what a deployment answers (requests there spread over the edge and reach one object).
 * Writes bench/workers-results.json and .md.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { startCli } from '../packages/backend/test/cli-process.ts';
import { startWorker } from '../packages/backend/test/workers.ts';
import { benchDir, benchRateLimitPerMinute, round } from './lib.ts';
import { amountOf, buildCombos } from './load.ts';
import { prng } from './prng.ts';

const SECONDS = 15;
const CONNECTIONS = 32;
const ORIGIN = 'https://shop.example';

export interface RateResult {
  target: string;
  /** Quotes answered (2xx) a second, over the run. */
  quotesPerSecond: number;
  non2xx: number;
  errors: number;
  latencyMs: { p50: number; p99: number };
}

export interface WorkersResult {
  settings: { seconds: number; connections: number; route: string };
  runs: RateResult[];
  /** The Worker's rate ÷ Node's. */
  ratio: number;
}

const vars = {
  ALLOWED_ORIGINS: ORIGIN,
  ACCESS_LOG: 'off',
  RATE_LIMIT_PER_MINUTE: String(benchRateLimitPerMinute),
};

async function closedLoop(target: string, url: string, sandboxUrl: string): Promise<RateResult> {
  const combos = await buildCombos(url, 24);
  if (!combos.length) throw new Error(`${target}: no combinations in the catalog (${sandboxUrl})`);
  const random = prng(20_261_207);
  const body = () => {
    const combo = combos[Math.floor(random() * combos.length)];
    return JSON.stringify({ ...combo, fiatAmount: amountOf(random) });
  };
  const blast = (duration: number) =>
    new Promise<Result>((resolve, reject) =>
      autocannon(
        {
          url: `${url}/api/quotes/buy`,
          method: 'POST',
          duration,
          connections: CONNECTIONS,
          headers: { 'content-type': 'application/json', origin: ORIGIN },
          requests: [{ setupRequest: (request) => ({ ...request, body: body() }) }],
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
  await blast(3); // the quote engine's references fetched, the JIT warm
  const result = await blast(SECONDS);
  return {
    target,
    quotesPerSecond: round(result['2xx'] / SECONDS),
    non2xx: result.non2xx,
    errors: result.errors,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
  };
}

export async function measureWorkers(): Promise<WorkersResult> {
  const runs: RateResult[] = [];
  const worker = await startWorker(vars);
  try {
    runs.push(
      await closedLoop(
        'one Worker isolate (Miniflare, a Durable Object)',
        worker.url,
        `${worker.url}/sandbox`,
      ),
    );
  } finally {
    await worker.stop();
  }
  const cli = await startCli(vars);
  try {
    runs.push(await closedLoop('the CLI on Node (SQLite)', cli.url, `${cli.url}/sandbox`));
  } finally {
    await cli.stop();
  }
  const [onWorker, onNode] = runs as [RateResult, RateResult];
  return {
    settings: { seconds: SECONDS, connections: CONNECTIONS, route: 'POST /api/quotes/buy' },
    runs,
    ratio: round(onWorker.quotesPerSecond / onNode.quotesPerSecond),
  };
}

export function workersMarkdown(result: WorkersResult): string[] {
  const { settings } = result;
  return [
    '## Quotes on Workers beside Node',
    '',
    `${settings.route}, a closed loop of ${settings.connections} connections for ${settings.seconds} s after a 3 s warm-up, the load step's shopper mix, each backend on its own sandbox, access log off.`,
    '',
    '| backend | quotes/s | p50 ms | p99 ms | non-2xx | errors |',
    '| --- | --- | --- | --- | --- | --- |',
    ...result.runs.map(
      (run) =>
        `| ${run.target} | ${run.quotesPerSecond} | ${run.latencyMs.p50} | ${run.latencyMs.p99} | ${run.non2xx} | ${run.errors} |`,
    ),
    '',
    `The Worker answers ${result.ratio} × Node's rate. Miniflare runs workerd on this machine: one isolate's CPU, not Cloudflare's network.`,
    '',
  ];
}

export function writeWorkersResult(result: WorkersResult): void {
  writeFileSync(join(benchDir, 'workers-results.json'), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(
    join(benchDir, 'workers-results.md'),
    `${['# Workers', '', ...workersMarkdown(result).slice(1)].join('\n')}`,
  );
}
