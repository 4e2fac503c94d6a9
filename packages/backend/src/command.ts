/**
 * The command line, run by cli.ts (the bin `crypto-checkout-backend`: `npx @crypto-checkout/backend`). Reads the
 * environment, checks it (every problem named at once), and serves the backend with Node's HTTP server. `--help`
 * prints every variable, from the `.env.example` shipped beside the build.
 */
import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { createAdaptorServer } from '@hono/node-server';
import { ConfigError, loadConfig } from './config.ts';
import { logger } from './logger.ts';
import { createRuntime, openStore } from './runtime.ts';
import { SharedStateUnavailable } from './shared/redis.ts';
import { StorageUnavailable } from './store/store.ts';

const usage = `Usage: crypto-checkout-backend [migrate] [--help]

Serves the <crypto-checkout> backend (API, widget bundle; the offline sandbox when no upstream keys are set),
configured from the environment. \`migrate\` only brings the database (DATABASE_URL, or SQLite under DATA_DIR)
to the current schema and exits; serving does that too. Every variable:
`;

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  const example = readFileSync(new URL('../.env.example', import.meta.url), 'utf8');
  process.stdout.write(`${usage}\n${example}`);
  process.exit(0);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  // A refused configuration is the operator's to fix: the message names each variable, no stack needed.
  logger.error(error instanceof ConfigError ? error.message : inspect(error));
  process.exit(1);
}

/** A database that cannot be reached is named, and the process ends: nothing is served half-working. */
async function orExit<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof StorageUnavailable || error instanceof SharedStateUnavailable)) throw error;
    const cause = (error.cause as Error | undefined)?.message;
    logger.error(`Cannot start: ${error.message}${cause ? ` (${cause})` : ''}.`);
    logger.error(
      error instanceof StorageUnavailable
        ? 'Check DATABASE_URL (or DATA_DIR for SQLite) and that the database is running.'
        : 'Check REDIS_URL and that Redis is running.',
    );
    process.exit(1);
  }
}

if (process.argv[2] === 'migrate') {
  const store = await orExit(openStore(config));
  logger.info(`${store.database}: the schema is up to date.`);
  await store.close();
  process.exit(0);
}

/** Connections the kernel may hold for the server before it accepts them. */
const LISTEN_BACKLOG = 4096;

const runtime = await orExit(createRuntime(config));
// Hono's `serve`, with a longer queue of connections waiting to be accepted: Node's default (511) overflows when
// thousands of shoppers connect at once (connections dropped, each retried by its client a second or more later:
// `npm run bench -- load`), and Node accepts one connection per turn of its loop. The kernel caps it at net.core.somaxconn.
const server = createAdaptorServer({ fetch: runtime.app.fetch });
server.listen({ port: config.port, backlog: LISTEN_BACKLOG }, () => {
  const base = config.publicUrl;
  const address = server.address();
  logger.info(
    `crypto-checkout backend listening on port ${typeof address === 'object' && address ? address.port : config.port}`,
  );
  logger.info(`  API           ${base}/api/  (reference: ${base}/api/docs)`);
  logger.info(`  widget bundle ${base}/widget/crypto-checkout.js`);
  if (config.mode === 'sandbox') {
    logger.info('  UPSTREAM: the offline SANDBOX (no RAMP_*/PAY_* variables are set); no real money moves.');
    logger.info(`  sandbox       ${base}/sandbox  (controls: ${base}/sandbox/control/)`);
  } else {
    logger.info(`  UPSTREAM: live — ramp ${config.ramp.apiUrl}, payments ${config.payments.apiUrl}`);
  }
  logger.info(`  allowed origins ${config.allowedOrigins.join(', ')}`);
});

const shutdown = () => {
  server.close();
  runtime.close().finally(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
