/**
 * One backend as a merchant runs it: the built CLI (`node dist/cli.js`, or the same file on Bun or Deno) in a
 * process of its own on a free port, configured by `env` only (sandbox mode unless upstream keys are given), its
 * output kept line by line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: plain JavaScript shared with scripts/test.mjs (no types).
import { ensurePackagesBuilt, ensureRuntimes } from '../../../scripts/ensure.mjs';
import { freePort, portTaken, startOnFreePort, waitFor } from './servers.ts';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const productsFile = fileURLToPath(new URL('./fixtures/products.json', import.meta.url));

/** What runs the CLI: this Node, or Bun or Deno from their npm packages (`ensureRuntimes`). */
export type Runtime = 'node' | 'bun' | 'deno';

/** The command line that runs the built CLI on `runtime`, as a merchant would type it. */
export function cliCommand(runtime: Runtime): [string, ...string[]] {
  if (runtime === 'node') return [process.execPath, cli];
  const { bun, deno } = ensureRuntimes() as { bun: string; deno: string };
  return runtime === 'bun' ? [bun, cli] : [deno, 'run', '-A', cli];
}

export interface CliProcess {
  url: string;
  port: number;
  /** Every line it wrote to stdout and stderr so far. */
  lines(): string[];
  stop(): Promise<void>;
  /** SIGKILL, as the kernel's OOM killer or `kill -9` ends it: nothing it had in hand is finished. */
  kill(): Promise<void>;
}

/**
 * Starts the CLI on `env.PORT`, or on a free port: one found free can be taken by another process before the CLI
 * binds it (suites and other runs start servers side by side), so the CLI is ready only once its own line says it
 * listens, and is started again on another port when the one found was taken.
 */
export async function startCli(
  env: Record<string, string> = {},
  options: { runtime?: Runtime } = {},
): Promise<CliProcess> {
  ensurePackagesBuilt();
  const command = cliCommand(options.runtime ?? 'node');
  return startOnFreePort('the CLI', () => startCliOnce(env, command));
}

async function startCliOnce(
  env: Record<string, string>,
  [command, ...args]: [string, ...string[]],
): Promise<CliProcess | typeof portTaken> {
  const port = env['PORT'] ? Number(env['PORT']) : await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-cli-'));
  const lines: string[] = [];
  let partial = '';
  const child: ChildProcess = spawn(command, args, {
    env: {
      PATH: process.env['PATH'] ?? '',
      PORT: String(port),
      PUBLIC_URL: url,
      PRODUCTS_FILE: productsFile,
      DATA_DIR: dataDir,
      RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_FORMAT: 'json',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const cut = text.split('\n');
    partial = cut.pop() ?? '';
    lines.push(...cut.filter(Boolean));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const own = `listening on port ${port}`;
  try {
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${lines.join('\n')}`);
      if (!lines.some((line) => line.includes(own))) throw new Error(`no "${own}" line yet`);
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5000) });
      if (!response.ok) throw new Error(`healthz ${response.status}`);
    }, `the backend on port ${port}`);
  } catch (error) {
    await stop();
    // A port the caller chose is theirs to fix: only one found free is looked for again.
    if (!env['PORT'] && lines.some((line) => line.includes('is already in use'))) return portTaken;
    throw error;
  }
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGKILL');
    });
  };
  return { url, port, lines: () => (partial ? [...lines, partial] : [...lines]), stop, kill };
}
