/**
 * Real PostgreSQL and Redis for tests (and the bench): Debian's servers, each on a free loopback port with its
 * own data directory under the system temp dir, stopped (and the directory removed) by `stop`. PostgreSQL refuses
 * to run as root, so as root it runs as the `postgres` user over a directory that user owns.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
// @ts-expect-error: plain JavaScript shared with scripts/test.mjs (no types).
import { ensureDatabaseServers } from '../../../scripts/ensure.mjs';

/** Where the kernel's own picks begin (`listen(0)` and outgoing connections): net.ipv4.ip_local_port_range. */
const kernelPortsFrom = (() => {
  try {
    return (
      Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768
    );
  } catch {
    return 32_768;
  }
})();

/** Whether a server can listen on `port` now, on every address (as the backend and the demo do). */
const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });

/**
 * A port free now, chosen below the range the kernel hands out itself. A port from that range (what `listen(0)`
 * gives) can be taken by any outgoing connection or any other `listen(0)` between this check and the server's
 * bind, or while a server restarts on it: seen as a suite answered by another run's server, and as a rolling
 * restart's instance refused its own port (EADDRINUSE). Below it only another test choosing the same port at
 * random in the same moment could.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * (kernelPortsFrom - 10_000));
    if (await canListen(port)) return port;
  }
}

/** What a start returns when the free port it was given was taken before it could listen. */
export const portTaken = Symbol('port taken');

/** Runs `start` (on a free port of its own) again when its port was taken meanwhile, five times at most. */
export async function startOnFreePort<T>(
  what: string,
  start: () => Promise<T | typeof portTaken>,
): Promise<T> {
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    const started = await start();
    if (started !== portTaken) return started;
  }
  throw new Error(`${what}: the port found free was taken five times`);
}

/** Waits for `probe` to succeed (a condition, not a time): at most `timeoutMs`, then the last error. */
export async function waitFor(
  probe: () => Promise<unknown>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      await probe();
      return;
    } catch (error) {
      last = error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`${what}: not so after ${timeoutMs} ms (${(last as Error)?.message ?? last})`);
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** As root, the `postgres` user's ids (the servers' processes then run as that user, spawned directly). */
const postgresUser = () =>
  asRoot
    ? {
        uid: Number(execFileSync('id', ['-u', 'postgres']).toString()),
        gid: Number(execFileSync('id', ['-g', 'postgres']).toString()),
      }
    : {};

function ownedDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const user = postgresUser();
  if (user.uid !== undefined) chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o700);
  return dir;
}

function stopped(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/** A database server the tests started on loopback, with its own data directory. */
export interface ServerProcess {
  url: string;
  port: number;
  /** Stops the server, keeping its data (for a restart with `start`). */
  halt(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  stop(): Promise<void>;
}

export type Postgres = ServerProcess;
export type Redis = ServerProcess;

/**
 * Starts a server with `launch` (which spawns it and waits until it answers) and gives the handle the tests use:
 * `halt` stops it with `signal`, `start` launches it again, `stop` halts it and removes `dir`.
 */
async function serverProcess(options: {
  url: string;
  port: number;
  dir: string;
  signal: NodeJS.Signals;
  launch: () => Promise<ChildProcess>;
}): Promise<ServerProcess> {
  let child: ChildProcess | undefined;
  const start = async () => {
    child = await options.launch();
  };
  await start();
  const halt = async () => {
    if (child) await stopped(child, options.signal);
  };
  return {
    url: options.url,
    port: options.port,
    halt,
    start,
    async stop() {
      await halt();
      rmSync(options.dir, { recursive: true, force: true });
    },
  };
}

export async function startPostgres(): Promise<Postgres> {
  const { postgresBin } = ensureDatabaseServers() as { postgresBin: string };
  const dir = ownedDir('cc-pg-');
  const data = path.join(dir, 'data');
  execFileSync(
    path.join(postgresBin, 'initdb'),
    ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'],
    { stdio: 'pipe', cwd: dir, ...postgresUser() },
  );
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const launch = async () => {
    const args = [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'max_connections=200',
    ];
    const child = spawn(path.join(postgresBin, 'postgres'), args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      cwd: dir,
      ...postgresUser(),
    });
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    const { default: pg } = await import('pg');
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`postgres exited: ${log}`);
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => undefined);
      await client.connect();
      await client.end();
    }, 'PostgreSQL');
    return child;
  };
  // `smart` shutdown waits for clients; `fast` (SIGINT) ends their sessions, as a real outage would.
  return serverProcess({ url, port, dir, signal: 'SIGINT', launch });
}

export async function startRedis(): Promise<Redis> {
  const { redisServer } = ensureDatabaseServers() as { redisServer: string };
  const dir = mkdtempSync(path.join(tmpdir(), 'cc-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const launch = async () => {
    const child = spawn(
      redisServer,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    );
    const { Redis: Client } = await import('ioredis');
    await waitFor(async () => {
      const client = new Client(url, {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.ping();
      } finally {
        client.disconnect();
      }
    }, 'Redis');
    return child;
  };
  return serverProcess({ url, port, dir, signal: 'SIGTERM', launch });
}

/** A fresh database on a running server, so each test file (or suite) has its own. */
export async function createDatabase(server: Postgres, name: string): Promise<string> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  await client.query(`create database "${name}"`);
  await client.end();
  return server.url.replace(/\/postgres$/, `/${name}`);
}

/** A request from `localAddress` (a connection of its own): distinct loopback addresses are distinct clients. */
export function requestFrom(
  localAddress: string,
  url: string,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { localAddress, agent: false, method: init.method ?? 'GET', headers: init.headers ?? {} },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject).end();
  });
}
