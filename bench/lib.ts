/** Small helpers shared by the bench steps: statistics, child processes, /proc readings, HTTP. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const benchDir = dirname(fileURLToPath(import.meta.url));
export const root = join(benchDir, '..');

/** The merchant the bench uses in the sandbox (its own rate-limit bucket). */
export const benchKeys = {
  rampPublic: 'pk_sandbox_bench',
  rampSecret: 'sk_sandbox_bench',
  pay: 'pay_sandbox_bench',
  payWebhook: 'whsec_sandbox_bench',
} as const;

/** What the backend's per-client limit is raised to for the bench (every load comes from 127.0.0.1). */
export const benchRateLimitPerMinute = 1_000_000;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The q-quantile (0..1) of `values`, nearest rank; NaN for none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] as number;
}

export const median = (values: readonly number[]) => quantile(values, 0.5);

/** Rounds for the report: 2 decimals below 10, 1 below 100, else integers. */
export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  const digits = Math.abs(value) < 10 ? 100 : Math.abs(value) < 100 ? 10 : 1;
  return Math.round(value * digits) / digits;
}

export const ratio = (value: number, reference: number) => round(value / reference);

/** The reference servers in bench/bare.mjs: plain `node` on the backend's adapter, like the backend role. */
const bareRoles = ['hello', 'same-bytes'];

export interface Child {
  url: string;
  pid: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

const withoutKey = (env: Record<string, string>, key: string) =>
  Object.fromEntries(Object.entries(env).filter(([name]) => name !== key));

/** A port free on loopback right now (the CLI takes PORT, not 0). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * A backend live against the bench's sandbox: its secrets, upstream URLs and keys, access log off, the per-client
 * limit raised. The backend role (bench/backend.mjs, as `BENCH_LIVE_ENV`) and the CLI role run with it.
 */
export function liveEnv(sandboxUrl: string | undefined): Record<string, string> {
  if (!sandboxUrl) throw new Error('the backend and cli roles need BENCH_SANDBOX_URL');
  return {
    CHECKOUT_TOKEN_SECRET: 'bench-checkout-token-secret-0123456789',
    ADMIN_TOKEN: 'bench-admin-token-0123456789abcdef',
    RAMP_API_URL: `${sandboxUrl}/ramp`,
    RAMP_WIDGET_URL: `${sandboxUrl}/ramp`,
    RAMP_PUBLIC_KEY: benchKeys.rampPublic,
    RAMP_SECRET_KEY: benchKeys.rampSecret,
    PAY_API_URL: `${sandboxUrl}/pay-api`,
    PAY_API_KEY: benchKeys.pay,
    PAY_WEBHOOK_SECRET: benchKeys.payWebhook,
    // The bench loads quotes: no catalog (live mode refuses the sample one).
    PRODUCTS_FILE: 'none',
    ACCESS_LOG: 'off',
    RATE_LIMIT_PER_MINUTE: String(benchRateLimitPerMinute),
  };
}

/** The built CLI (`crypto-checkout-backend`) as a merchant runs it live: `liveEnv`, its own SQLite under a temporary DATA_DIR. */
async function cliEnv(sandboxUrl: string | undefined): Promise<Record<string, string>> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  return {
    ...liveEnv(sandboxUrl),
    PORT: String(port),
    PUBLIC_URL: url,
    ALLOWED_ORIGINS: url,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-cli-')),
  };
}

/**
 * Starts a server role in a process of its own (so servers and load generator do not share an event loop) and
 * waits until it listens: the backend as production runs it (`node bench/backend.mjs`, the built package, no tsx,
 * with the bench's timing hooks), `cli` (the built CLI itself, live against BENCH_SANDBOX_URL, SQLite; any other
 * variable in `env` is added to its environment), the
 * others through `node --import tsx bench/server.ts <role>`. A role says it listens with a `{"url": …}` line; the
 * CLI with its "listening on port" line.
 */
export async function startServer(
  role: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<Child> {
  const cli = role === 'cli' ? await cliEnv(env.BENCH_SANDBOX_URL) : undefined;
  const args = [
    ...nodeArgs,
    ...(role === 'backend'
      ? [join(benchDir, 'backend.mjs')]
      : cli
        ? [join(root, 'packages', 'backend', 'dist', 'cli.js')]
        : bareRoles.includes(role)
          ? [join(benchDir, 'bare.mjs'), role]
          : ['--import', 'tsx', join(benchDir, 'server.ts'), role]),
  ];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: cli
      ? { PATH: process.env.PATH ?? '', ...cli, ...withoutKey(env, 'BENCH_SANDBOX_URL') }
      : {
          ...process.env,
          ...(role === 'backend' ? { BENCH_LIVE_ENV: JSON.stringify(liveEnv(env.BENCH_SANDBOX_URL)) } : {}),
          ...env,
        },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NonNullable<typeof child.stdout> });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${role} did not start within 30 s`)), 30_000);
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code} before it was ready`)));
    lines.on('line', (line) => {
      if (cli && /listening on port/.test(line)) {
        clearTimeout(timer);
        resolve(cli.PUBLIC_URL as string);
        return;
      }
      try {
        const parsed = JSON.parse(line) as { url?: string };
        if (parsed.url) {
          clearTimeout(timer);
          resolve(parsed.url);
          return;
        }
      } catch {
        // not our line
      }
      // The CLI's banner after its first line is not news here.
      if (!cli) process.stderr.write(`[${role}] ${line}\n`);
    });
  });
  const pid = child.pid as number;
  return {
    url,
    pid,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        // Exited already (with a code, or killed by a signal): no 'exit' is coming.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 3000).unref();
      }),
  };
}

/** `VmRSS` / `VmHWM` of a process in MB, from /proc (Linux). */
export function procMemory(pid: number): { rssMb: number; hwmMb: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { rssMb: round(kb('VmRSS') / 1024), hwmMb: round(kb('VmHWM') / 1024) };
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function procCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Resets a process's peak RSS (VmHWM) so a later reading covers only what follows; false when refused. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * A JSON read for the bench's own setup. A 503 with Retry-After (the upstream still throttled by the series
 * before, the pass-through proxy's in particular) is waited out as a client should, a few times.
 */
export async function getJson<T>(url: string, init?: RequestInit, attempts = 5): Promise<T> {
  const response = await fetch(url, init);
  const retryAfter = Number(response.headers.get('retry-after'));
  if (response.status === 503 && retryAfter > 0 && attempts > 1) {
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    return getJson<T>(url, init, attempts - 1);
  }
  const text = await response.text();
  if (!response.ok)
    throw new Error(`${init?.method ?? 'GET'} ${url} → ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

export const postJson = <T>(url: string, body: unknown) =>
  getJson<T>(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
