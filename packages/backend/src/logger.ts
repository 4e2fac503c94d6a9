/**
 * The backend's one way to write a line out: every module logs through `logger` (or a `log` option that defaults
 * to it), never through `console`, so what a line looks like and where it goes is decided here alone.
 *
 * Lines are pino's JSON, one object a line on stdout: `time` (ISO), `level` (its name), `msg`, `instance`, the
 * `requestId` of the request that caused the line (`inRequest`: any line written while a request is served,
 * however deep the code that writes it), and the fields a caller gives (for requests `route`, `status`,
 * `durationMs`). In a terminal during development (LOG_FORMAT=auto) they are pino-pretty's readable lines instead.
 * Fields that could carry a secret or identify a customer (keys, tokens, signatures, e-mails, addresses) are
 * redacted by pino wherever a caller puts them; messages themselves never carry them (the access log masks query
 * values, URLs are logged without them).
 *
 * `configureLogging` is called once by `createRuntime` with the configuration (LOG_LEVEL, LOG_FORMAT,
 * INSTANCE_NAME); until then lines go out as JSON at `info`. Tests pass a `destination` to read the lines.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import type { Writable } from 'node:stream';
import { type Logger as Pino, pino } from 'pino';

/** What a caller adds to a line: plain JSON values (an `err` is serialised with its type, message and stack). */
export type LogFields = Record<string, unknown>;

export interface Logger {
  /** Detail an operator turns on when looking into something (LOG_LEVEL=debug). */
  debug(line: string, fields?: LogFields): void;
  /** What an operator reads in passing: the start, one line per request (ACCESS_LOG). */
  info(line: string, fields?: LogFields): void;
  /** Something went wrong and was handled (an upstream failure, a retry, a delivery that will be tried again). */
  warn(line: string, fields?: LogFields): void;
  /** Something went wrong that nothing handled; `error` is the thrown value, logged with its stack. */
  error(line: string, error?: unknown, fields?: LogFields): void;
}

/** What a module takes as its `log` option: one line, handled as a warning unless it says otherwise. */
export type LogLine = (line: string, fields?: LogFields) => void;

/**
 * The `instance` of every line: INSTANCE_NAME, else `<hostname>:<PORT>` (config.ts reads it the same way), so the
 * lines written before the configuration is read carry the value the later ones do.
 */
export const instanceName = (name: string | undefined, port: string | number | undefined) =>
  name || `${hostname()}:${port ?? 8787}`;

/**
 * The request being served, for the lines it causes. One AsyncLocalStorage, entered once per request by the app's
 * first middleware, read by pino's `mixin` for each line: the upstream client, the admin check and the ledger log
 * without being handed the id.
 */
const requestScope = new AsyncLocalStorage<{ requestId: string }>();
const noFields = Object.freeze({});

/** Runs `work` (the rest of a request) so that every line it causes carries `requestId`. */
export const inRequest = <T>(requestId: string, work: () => T): T => requestScope.run({ requestId }, work);

/**
 * Runs `work` as part of no request: for a handler of a connection's events, which would otherwise carry the id of
 * whichever request happened to open the connection (a pool's socket opened for a query).
 */
export const outsideRequest = <T>(work: () => T): T => requestScope.exit(work);

export interface LoggingOptions {
  level?: string;
  format?: 'json' | 'pretty' | 'auto';
  instance?: string;
  /** Where lines go (default stdout); tests give a stream of their own. */
  destination?: Writable;
}

/** Field names whose values never reach a line, wherever a caller puts them at the top of a line's fields. */
const sensitiveKeys = [
  'authorization',
  'cookie',
  'password',
  'secret',
  'secretKey',
  'apiKey',
  'api_key',
  'token',
  'accessToken',
  'checkoutToken',
  'customerToken',
  'statusToken',
  'signature',
  'email',
  'userEmail',
  'customerEmail',
  'address',
  'walletAddress',
  'depositAddress',
  'phone',
];
/** Where they sit one object down in what callers log (a customer, a request's headers or body, an upstream's). */
const sensitiveNested = [
  'customer.email',
  'customer.phone',
  'metadata.userEmail',
  'metadata.customerEmail',
  'headers.authorization',
  'headers.cookie',
  'headers["x-api-key"]',
  'headers["x-status-token"]',
  'body.email',
  'body.address',
  'body.walletAddress',
  'body.customerToken',
  'body.api_key',
  'query.token',
  'query.email',
  'query.apiKey',
  'query.api_key',
  'query.signature',
];
/**
 * Paths pino redacts: named ones, never wildcards (`*.email` makes every line walk its fields: an access-log line
 * took eight times as long, `npm run bench -- observability`).
 */
export const redactedPaths = [...sensitiveKeys, ...sensitiveNested];

/** Development means a terminal and NODE_ENV other than production. */
const wantsPretty = (format: LoggingOptions['format']) =>
  format === 'pretty' ||
  (format !== 'json' && process.stdout.isTTY === true && process.env['NODE_ENV'] !== 'production');

/** Where JSON lines go now, and what every line repeats after its time (the instance); unset when lines are pretty. */
let json: { out: { write(line: string): unknown }; base: string } | undefined;

function build(options: LoggingOptions): Pino {
  const instance = options.instance ?? instanceName(process.env['INSTANCE_NAME'], process.env['PORT']);
  const settings = {
    level: options.level ?? 'info',
    base: { instance },
    mixin: () => requestScope.getStore() ?? noFields,
    // A new object (pino's default assigns into the mixin's, which is the request's); a caller's own field wins.
    mixinMergeStrategy: (fields: object, scope: object) =>
      scope === noFields ? fields : { ...scope, ...fields },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    redact: { paths: redactedPaths, censor: '[redacted]' },
  };
  if (wantsPretty(options.format)) {
    json = undefined;
    // pino-pretty is CommonJS; required only when a terminal asks for it. Synchronous: a line is out before exit.
    const pretty = createRequire(import.meta.url)('pino-pretty') as (options: object) => Writable;
    return pino(
      settings,
      pretty({
        sync: true,
        colorize: options.destination === undefined && process.stdout.isTTY === true,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
        ...(options.destination ? { destination: options.destination } : {}),
      }),
    );
  }
  const out = options.destination ?? stdout();
  json = { out, base: `,"instance":${JSON.stringify(instance)}` };
  return pino(settings, out);
}

/**
 * stdout, one stream for every configuration (lines stay in order across `configureLogging`). Buffered: lines go
 * out together once 32 kB have gathered (half a Linux pipe's buffer: a write still fits while a log shipper reads
 * the other half) or every 250 ms, one system call (and one thread-pool write) for many,
 * where a write per line cost a request at 1,000/s about as much CPU again as the line itself (`npm run bench --
 * observability`). The lines are gathered here, in an array joined once, rather than by sonic-boom's `minLength`:
 * that appends each line to one string and measures it again (flattening it), about 9 kB of garbage a line where
 * this makes about 1 (`node --trace-gc`, 100,000 access lines: 1,124 scavenges against 311). What is gathered is
 * written when the process exits (process.exit, an uncaught error, the end of the loop); a SIGKILL loses at most
 * the last 250 ms.
 */
const GATHER_BYTES = 32 * 1024;
const GATHER_MS = 250;
let stdoutStream:
  | { write(line: string): boolean; flush(): void; flushSync(): void; written(): Promise<void> }
  | undefined;
const stdout = () => {
  if (stdoutStream) return stdoutStream;
  const out = pino.destination({ dest: 1, sync: false });
  let lines: string[] = [];
  let length = 0;
  // Bytes handed to sonic-boom's asynchronous writes and not yet written: a process that exits while some are
  // still on their way loses them on Bun (its writes are not done at exit as Node's thread pool's are).
  let unwritten = 0;
  let onWritten: (() => void)[] = [];
  out.on('write', (n: number) => {
    unwritten = Math.max(0, unwritten - n);
    if (unwritten > 0) return;
    const waiting = onWritten;
    onWritten = [];
    for (const resolve of waiting) resolve();
  });
  const take = () => {
    const text = lines.join('');
    lines = [];
    length = 0;
    return text;
  };
  const send = () => {
    if (length === 0) return;
    const text = take();
    unwritten += Buffer.byteLength(text);
    out.write(text);
  };
  setInterval(send, GATHER_MS).unref();
  stdoutStream = {
    write(line) {
      lines.push(line);
      length += line.length;
      if (length >= GATHER_BYTES) send();
      return true;
    },
    flush() {
      send();
      out.flush();
    },
    written() {
      send();
      if (unwritten === 0) return Promise.resolve();
      // At most a second: a reader that stopped reading must not hold the exit up.
      return new Promise((resolve) => {
        onWritten.push(resolve);
        setTimeout(resolve, 1000).unref();
      });
    },
    flushSync() {
      // What sonic-boom holds first, then what is gathered here, both written now: handed to sonic-boom, the
      // gathered lines would start an asynchronous write that its flushSync leaves to finish after the exit.
      // A synchronous sonic-boom on the same descriptor writes them, waiting out a pipe that is full for a moment.
      const text = take();
      out.flushSync();
      if (text) pino.destination({ dest: 1, sync: true }).write(text);
    },
  };
  return stdoutStream;
};

/** What the access log says of a request (every field but `requestId` read off the request, the path masked). */
export interface RequestLine {
  requestId: string;
  method: string;
  path: string;
  route: string;
  status: number;
  durationMs: number;
}

/**
 * The level of a request's line: an answer the server could not give is an operator's concern. 500 (a fault of
 * ours) is an error; another 5xx (503 draining or a dependency away, 502/504 the upstream) was handled: a warning.
 */
export const requestLevel = (status: number): 'info' | 'warn' | 'error' =>
  status < 500 ? 'info' : status === 500 ? 'error' : 'warn';

/**
 * The access log's line for a request, at `requestLevel`. As JSON it is written here, in the layout pino gives
 * every other line (`level`, `time`, `instance`, the fields, `msg`), rather than by pino: its fields are always
 * these six, none of them redacted (the path's sensitive query values are masked before), and one template costs a
 * small share of what pino's walk over any object does, at one line per request (`npm run bench -- observability`).
 * Pretty lines (a terminal) go through pino as any other.
 */
export function logRequest(line: string, fields: RequestLine): void {
  const level = requestLevel(fields.status);
  const current = pinoNow();
  if (!current.isLevelEnabled(level)) return;
  if (!json) {
    current[level](fields, line);
    return;
  }
  const { requestId, method, path, route, status, durationMs } = fields;
  json.out.write(
    `{"level":"${level}","time":"${new Date().toISOString()}"${json.base},"requestId":${JSON.stringify(requestId)},` +
      `"method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"route":${JSON.stringify(route)},` +
      `"status":${status},"durationMs":${durationMs},"msg":${JSON.stringify(line)}}\n`,
  );
}

/** Sends the lines gathered so far on their way (the start banner: before the first request is answered). */
export function flushLogs(): void {
  stdoutStream?.flush();
}

/** Once every line logged so far is written to stdout (a graceful exit waits for it: nothing said is lost). */
export function logsWritten(): Promise<void> {
  return stdoutStream?.written() ?? Promise.resolve();
}

// At exit, what waits (gathered lines, sonic-boom's own) is written before the process ends.
process.on('exit', () => {
  try {
    stdoutStream?.flushSync();
  } catch {
    // The stream is closed (a broken pipe): nothing can be written any more.
  }
});

// Until the configuration is read (and when it is refused: that message too is a line), the environment's word.
const formats = ['json', 'pretty', 'auto'] as const;
const envFormat = formats.find((format) => format === process.env['LOG_FORMAT']) ?? 'auto';
const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const envLevel = levels.find((level) => level === process.env['LOG_LEVEL']) ?? 'info';
// Built at the first line rather than at import: a Worker may start no stream or timer while its modules load.
let configured: Pino | undefined;
const pinoNow = (): Pino => (configured ??= build({ level: envLevel, format: envFormat }));

/** Replaces how lines are written (level, format, instance name, destination) for every module at once. */
export function configureLogging(options: LoggingOptions): void {
  configured = build(options);
}

/** Whether a line of `level` would be written (to skip building one that would not). */
export const logs = (level: 'debug' | 'info' | 'warn') => pinoNow().isLevelEnabled(level);

export const logger: Logger = {
  debug: (line, fields) => (fields ? pinoNow().debug(fields, line) : pinoNow().debug(line)),
  info: (line, fields) => (fields ? pinoNow().info(fields, line) : pinoNow().info(line)),
  warn: (line, fields) => (fields ? pinoNow().warn(fields, line) : pinoNow().warn(line)),
  error: (line, error, fields) =>
    error === undefined && !fields ? pinoNow().error(line) : pinoNow().error({ ...fields, err: error }, line),
};
