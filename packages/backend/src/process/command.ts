/**
 * The command line, run by cli.ts (the bin `crypto-checkout-backend`: `npx @crypto-checkout/backend`). Reads
 * `.env` in the working directory (the environment wins), checks the configuration (every problem named at
 * once), takes the SQLite DATA_DIR for this process, and serves the backend with Node's HTTP server. `--help`
 * prints every variable, from the `.env.example` shipped beside the build; a command or flag it does not know
 * exits 2 with the usage.
 */
import { readFileSync } from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import { parseArgs } from 'node:util';
import { createAdaptorServer } from '@hono/node-server';
import { storageWords } from '../checks/environment.ts';
import { ConfigError, envFileSource, loadConfig, readEnvFile, startWarnings } from '../config.ts';
import { configureLogging, flushLogs, logger, logsWritten } from '../logger.ts';
import { SharedStateUnavailable } from '../shared/redis.ts';
import type { SqlStore } from '../store/sql-store.ts';
import { StorageUnavailable } from '../store/store.ts';
import { DataDirInUse, type DataDirLock, lockDataDir } from './data-dir-lock.ts';
import { runtimeNote } from './host-runtime.ts';
import { openStore } from './open-store.ts';
import { createRuntime } from './runtime.ts';
import { loadSandbox, SandboxMissing, sandboxNotice } from './sandbox-mount.ts';

const usage = `Usage: crypto-checkout-backend [migrate | check | csp [--pay-page-origin <origin>…] | unlock <address> | unlock --all
                               | widget-tag | listen --forward-to <url> [--last <n>] [--events <type,…>]
                               | trigger <event type>] [--url <backend>] [--token <admin token>] [--help] [--version]

  (no command)   serve the <crypto-checkout> backend: API, widget bundle, and the offline sandbox when no
                 upstream keys are set
  migrate        bring the database (DATABASE_URL, or SQLite under DATA_DIR) to the current schema, say what
                 was applied, and exit; serving does that too
  check          check the configuration, the database, Redis and each upstream with the configured keys once,
                 print a verdict and a fix for each, exit 1 on any failure (sends no order, moves no money)
  csp            print the Content-Security-Policy and Reporting-Endpoints headers a storefront page showing the
                 element needs (storefrontCsp(config)); --pay-page-origin (repeatable) adds the origin the
                 upstream's payment links open on, which a live policy needs for the inline and modal displays
  unlock <address>
                 lift the wrong-admin-credential count of a client address (its 429s end), in Redis for every
                 instance; --all lifts every address's. Without REDIS_URL it names the admin route that does it
  widget-tag     print the <script> tag that pins the installed widget's version (its /widget/v<version>/ path
                 under PUBLIC_URL, integrity, crossorigin), then its manifest: every file the element can load
                 with its SHA-384
  listen --forward-to <url>
                 follow a running backend's fulfilment events (GET /api/admin/events/stream) and POST each to
                 <url> signed per Standard Webhooks with a development secret (whsec_…) printed at start, one line
                 per event with the local answer; --last <n> first forwards the n newest, --events only those
                 types (order.paid,order.expired). Reconnects when the backend restarts; Ctrl-C ends it
  trigger <event type>
                 make a running sandbox backend produce a real event: order.created, order.paid,
                 order.underpaid, order.overpaid, order.expired or order.failed (an order made through its API,
                 then paid, expired or cancelled with the sandbox's controls); refused in live mode
  --url, --token the backend listen and trigger talk to, and an admin token (read is enough): by default
                 PUBLIC_URL (or http://localhost:PORT) and ADMIN_TOKEN, as serving reads them
  -h, --help     this, and every variable
  -v, --version  the version

Configured from the environment, and from a .env file in the working directory (a variable set in the
environment wins over the file).
`;

/** Why the command will not run, as a plain sentence on stderr (the command's own answer, not a log line). */
const refuse = (message: string) => process.stderr.write(`${message}\n`);

let args: ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>;
const options = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  all: { type: 'boolean' },
  'pay-page-origin': { type: 'string', multiple: true },
  'forward-to': { type: 'string' },
  last: { type: 'string' },
  events: { type: 'string' },
  url: { type: 'string' },
  token: { type: 'string' },
} as const;
try {
  args = parseArgs({ options, allowPositionals: true, strict: true });
} catch (error) {
  // Node's message ("Unknown option '--bogus'. To specify a positional…"): its first sentence is the news. A usage
  // error is the command's answer, written as is (like --help), not a log line.
  process.stderr.write(`${(error as Error).message.split('. ')[0]}.\n\n${usage}`);
  process.exit(2);
}
const [command, ...extra] = args.positionals;

if (args.values.version) {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${manifest.version}\n`);
  process.exit(0);
}
if (args.values.help) {
  const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
  process.stdout.write(`${usage}\nEvery variable (.env.example):\n\n${example}`);
  process.exit(0);
}
const commands = ['migrate', 'check', 'csp', 'unlock', 'widget-tag', 'listen', 'trigger'];
const payPageOrigins = args.values['pay-page-origin'] ?? [];
/** Flags only some commands take, and which. */
const flagsOf: Record<string, boolean | undefined> = {
  '--forward-to': args.values['forward-to'] !== undefined && command !== 'listen',
  '--last': args.values.last !== undefined && command !== 'listen',
  '--events': args.values.events !== undefined && command !== 'listen',
  '--url': args.values.url !== undefined && command !== 'listen' && command !== 'trigger',
  '--token': args.values.token !== undefined && command !== 'listen' && command !== 'trigger',
};
if (
  (command !== undefined && !commands.includes(command)) ||
  extra.length > (command === 'unlock' || command === 'trigger' ? 1 : 0) ||
  (args.values.all && command !== 'unlock') ||
  (payPageOrigins.length && command !== 'csp') ||
  Object.values(flagsOf).some(Boolean)
) {
  const flags = [
    ...(args.values.all ? ['--all'] : []),
    ...(payPageOrigins.length ? ['--pay-page-origin'] : []),
    ...Object.keys(flagsOf).filter((flag) => flagsOf[flag]),
  ];
  process.stderr.write(
    `Unknown command "${[command, ...extra, ...flags].filter((word) => !commands.includes(word ?? '')).join(' ')}".\n\n${usage}`,
  );
  process.exit(2);
}

if (command === 'widget-tag') {
  // PUBLIC_URL as serving reads it (the environment, then .env), defaulted as config.ts does.
  try {
    readEnvFile();
  } catch (error) {
    refuse(error instanceof ConfigError ? error.message : String(error));
    process.exit(1);
  }
  const { readWidgetManifest, widgetTag } = await import('../routes/widget-bundle.ts');
  const manifest = await readWidgetManifest().catch((error: Error) => {
    refuse(
      `The widget's manifest cannot be read (build the widget: npm run build -w packages/widget): ${error.message}`,
    );
    return process.exit(1);
  });
  const base = process.env['PUBLIC_URL'] ?? `http://localhost:${process.env['PORT'] ?? 8787}`;
  process.stdout.write(`${widgetTag(manifest, base)}\n\n${JSON.stringify(manifest, null, 2)}\n`);
  process.exit(0);
}

if (command === 'listen' || command === 'trigger') {
  const { runDeveloperCommand } = await import('./developer-commands.ts');
  process.exit(await runDeveloperCommand(command, extra[0], args.values, usage, refuse));
}

if (command === 'check') {
  // The same .env as serving reads, so `check` judges what `crypto-checkout-backend` would run with.
  let file: string | undefined;
  try {
    file = readEnvFile();
  } catch (error) {
    refuse(error instanceof ConfigError ? error.message : String(error));
    process.exit(1);
  }
  const { runCheck } = await import('../checks/run-check.ts');
  const source = file ? envFileSource(file, process.env) : undefined;
  process.exit(await runCheck(process.env, (text) => process.stdout.write(text), source));
}

let envFile: string | undefined;
let config: ReturnType<typeof loadConfig>;
try {
  envFile = readEnvFile();
  config = loadConfig(process.env, envFile ? { source: envFileSource(envFile, process.env) } : {});
} catch (error) {
  // A refused configuration is the operator's to fix: the message names each variable, no stack needed.
  refuse(error instanceof ConfigError ? error.message : `Cannot read .env: ${(error as Error).message}`);
  process.exit(1);
}
// The headers alone on stdout, to be copied or piped: no log line before them.
if (command === 'csp') {
  const { printStorefrontCsp } = await import('./csp-command.ts');
  process.exit(printStorefrontCsp(config, payPageOrigins, (text) => process.stdout.write(text), refuse));
}

// From the first line on, as the configuration says (level, format, and the `instance` every later line carries).
configureLogging({
  level: config.observability.logLevel,
  format: config.observability.logFormat,
  instance: config.observability.instance,
});
if (envFile) logger.info(`Read ${envFile} (variables set in the environment win over it).`);

if (command === 'unlock') {
  const { runUnlock } = await import('../admin/unlock-command.ts');
  const code = await runUnlock(config, { address: extra[0], all: args.values.all === true }, refuse);
  flushLogs();
  process.exit(code);
}

/**
 * A database that cannot be reached, or a sandbox that is not installed, is named, and the process ends: nothing
 * is served half-working.
 */
async function orExit<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof SandboxMissing) {
      refuse(error.message);
      process.exit(1);
    }
    if (!(error instanceof StorageUnavailable || error instanceof SharedStateUnavailable)) throw error;
    const cause = (error.cause as Error | undefined)?.message;
    refuse(`Cannot start: ${error.message}${cause ? ` (${cause})` : ''}.`);
    refuse(
      error instanceof StorageUnavailable
        ? 'Check DATABASE_URL (or DATA_DIR for SQLite) and that the database is running.'
        : 'Check REDIS_URL and that Redis is running.',
    );
    process.exit(1);
  }
}

// No keys and no sandbox to stand in for them is said first: nothing else can make it serve.
if (config.mode === 'sandbox' && command !== 'migrate') await orExit(loadSandbox());

/** Why DATA_DIR cannot be taken, in a sentence: held by another process, or SQLite itself missing. */
function dataDirProblem(error: unknown): string {
  if (error instanceof DataDirInUse) return error.message;
  const { code, message } = error as { code?: string; message?: string };
  const binary = code === 'MODULE_NOT_FOUND' && message?.match(/'(@libsql\/[^']+)'/)?.[1];
  if (binary)
    return (
      `SQLite's native binary for this machine (${binary}, an optional dependency of libsql) is not installed, ` +
      'as after npm install --omit=optional: install without --omit=optional, or set DATABASE_URL (PostgreSQL).'
    );
  return `Cannot use DATA_DIR ${config.dataDir}: ${message?.split('\n')[0]}`;
}

/** SQLite is one process per DATA_DIR: a second one is refused before it opens anything. */
let dataDirLock: DataDirLock | undefined;
if (!config.databaseUrl) {
  try {
    dataDirLock = await lockDataDir(config.dataDir);
  } catch (error) {
    refuse(dataDirProblem(error));
    process.exit(1);
  }
}

if (command === 'migrate') {
  const store = await orExit(openStore(config));
  const { applied, database } = store;
  logger.info(
    applied.length
      ? [`${database}: applied ${applied.length} migration(s):`, ...applied.map((name) => `  ${name}`)].join(
          '\n',
        )
      : `${database}: already up to date, no migration to apply.`,
  );
  await store.close();
  dataDirLock?.release();
  process.exit(0);
}

/** Connections the kernel may hold for the server before it accepts them. */
const LISTEN_BACKLOG = 4096;

const runtime = await orExit(createRuntime(config));
// An upgrade's migrations run here when `migrate` was not run first: the log says which.
const { applied = [], database } = runtime.deps.store as Partial<SqlStore>;
if (applied.length) logger.info(`${database}: applied ${applied.length} migration(s): ${applied.join(', ')}`);
// Hono's `serve`, with a longer queue of connections waiting to be accepted: Node's default (511) overflows when
// thousands of shoppers connect at once (connections dropped, each retried by its client a second or more later:
// `npm run bench -- load`), and Node accepts one connection per turn of its loop. The kernel caps it at net.core.somaxconn.
const server = createAdaptorServer({ fetch: runtime.app.fetch });
server.once('error', (error: NodeJS.ErrnoException) => {
  const words =
    error.code === 'EADDRINUSE'
      ? `port ${config.port} is already in use by another process: stop it, or set PORT to a free port.`
      : error.code === 'EACCES'
        ? `port ${config.port} needs privileges this process does not have: set PORT to 1024 or above.`
        : `could not listen on port ${config.port}: ${error.message}`;
  logger.error(`crypto-checkout backend: ${words}`);
  flushLogs();
  process.exit(1);
});
server.listen({ port: config.port, backlog: LISTEN_BACKLOG }, () => {
  const base = config.publicUrl;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info(`crypto-checkout backend listening on port ${port}`);
  logger.info(`  API           ${base}/api/  (reference: ${base}/api/docs)`);
  logger.info(`  widget bundle ${base}/widget/crypto-checkout.js`);
  if (config.mode === 'sandbox') {
    logger.info(`  ${sandboxNotice(base)}  (controls: ${base}/sandbox/control/)`);
  } else {
    logger.info(`  UPSTREAM: live — ramp ${config.ramp.apiUrl}, payments ${config.payments.apiUrl}`);
  }
  const { storage, redis } = runtime.deps.readiness.environment();
  logger.info(
    `  STORAGE: ${storageWords(storage)}; REDIS: ${redis ? redis.host : 'none (everything stays in this process)'}`,
  );
  logger.info(`  health        ${base}/healthz (liveness), ${base}/readyz (readiness)`);
  if (config.observability.metrics.enabled && config.observability.metrics.port === undefined)
    logger.info(`  metrics       ${base}/metrics (Authorization: Bearer $METRICS_TOKEN)`);
  logger.info(`  allowed origins ${config.allowedOrigins.join(', ')}`);
  for (const warning of startWarnings(config, port)) logger.warn(`Warning: ${warning}`);
  const note = runtimeNote();
  if (note) logger.warn(note);
  // Out now, before the first request is answered, rather than with the next batch of lines.
  flushLogs();
});

/** What a forced exit ends unfinished: `2 in-flight requests, 0 open status streams, 1 event delivery in flight`. */
const cutWords = ({ requests, streams, deliveries }: ReturnType<typeof runtime.inFlight>) =>
  [
    `${requests} in-flight request${requests === 1 ? '' : 's'}`,
    `${streams} open status stream${streams === 1 ? '' : 's'}`,
    `${deliveries} event deliver${deliveries === 1 ? 'y' : 'ies'} in flight`,
  ].join(', ');

/**
 * Graceful shutdown, each step logged: readiness fails at once (the load balancer stops sending new requests)
 * while requests are still served for SHUTDOWN_DRAIN_MS; then the server stops accepting, status streams end
 * with a retry hint (the browser reconnects elsewhere), in-flight requests finish, the delivery worker finishes
 * its current delivery, the pools close, exit 0. Past SHUTDOWN_TIMEOUT_MS it exits anyway, with code 1.
 */
const { drainMs, timeoutMs } = config.shutdown ?? { drainMs: 3000, timeoutMs: 30_000 };
let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  const began = Date.now();
  const step = (line: string) => logger.info(`[shutdown +${Date.now() - began} ms] ${line}`);
  setTimeout(() => {
    logger.error(
      `[shutdown] not done after SHUTDOWN_TIMEOUT_MS (${timeoutMs} ms): exiting 1, cutting ${cutWords(runtime.inFlight())}.`,
      undefined,
      { cut: runtime.inFlight() },
    );
    process.exit(1);
  }, timeoutMs).unref();
  runtime.deps.lifecycle.drain();
  step(`${signal}: /readyz answers 503 from now; still serving for ${drainMs} ms (SHUTDOWN_DRAIN_MS)`);
  await new Promise((resolve) => setTimeout(resolve, drainMs));
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  step('drained: no new connections accepted');
  const streams = runtime.deps.lifecycle.endStreams();
  step(`ended ${streams} status stream(s) with a retry hint`);
  // Keep-alive connections with no request in flight are closed as they become idle (answer sent).
  const idle = setInterval(() => (server as HttpServer).closeIdleConnections(), 100);
  (server as HttpServer).closeIdleConnections();
  await closed;
  clearInterval(idle);
  step('in-flight requests finished');
  await runtime.close();
  step('delivery worker stopped after its current delivery; store, Redis and upstream pools closed');
  dataDirLock?.release();
  step('exiting 0');
  await logsWritten();
  process.exit(0);
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
