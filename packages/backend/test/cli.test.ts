/**
 * The built command line (`node dist/cli.js`, what `crypto-checkout-backend` runs) as an operator meets it: its
 * version, its usage for what it does not know, `.env` in the working directory under the real environment,
 * warnings about a PUBLIC_URL that cannot work, and one process per SQLite DATA_DIR.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createSandbox } from '@crypto-checkout/sandbox';
import { type ServerType, serve } from '@hono/node-server';
// @ts-expect-error: plain JavaScript shared with scripts/test.mjs (no types).
import { ensurePackagesBuilt } from '../../../scripts/ensure.mjs';
import { freePort, waitFor } from './servers.ts';
import { sandboxUpstreamEnv } from './support.ts';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

interface Cli {
  child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  stderr(): string;
  /** stdout and stderr as written (JSON lines). */
  raw(): string;
  exited: Promise<number | null>;
}

/** Log lines as a person reads them: each JSON line (the CLI's logs off a terminal) as its message. */
const readable = (text: string) =>
  text
    .split('\n')
    .map((line) => {
      try {
        const parsed = JSON.parse(line) as { msg?: unknown };
        return typeof parsed.msg === 'string' ? parsed.msg : line;
      } catch {
        return line;
      }
    })
    .join('\n');

/** Starts the CLI in `cwd` with only PATH and `env` in its environment. */
function startCli(cwd: string, env: Record<string, string>, args: string[] = []): Cli {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', ACCESS_LOG: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk;
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, output: () => readable(output), stderr: () => readable(stderr), raw: () => output, exited };
}

/**
 * Runs the CLI to its end. One that is still running after a minute (it served when it should have refused) is
 * stopped, and its exit code is then null.
 */
async function runCli(cwd: string, env: Record<string, string>, args: string[] = []) {
  const run = startCli(cwd, env, args);
  const deadline = setTimeout(() => run.child.kill('SIGKILL'), 60_000);
  const code = await run.exited;
  clearTimeout(deadline);
  return { code, output: run.output(), stderr: run.stderr() };
}

/** Waits until the CLI has printed its start-up lines (warnings come last). */
async function untilServing(run: Cli): Promise<void> {
  await waitFor(async () => {
    if (run.child.exitCode !== null) throw new Error(`the CLI exited: ${run.output()}`);
    if (!/allowed origins/.test(run.output())) throw new Error('not started yet');
  }, 'the CLI serves');
}

async function stop(run: Cli, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill(signal);
  await run.exited;
}

describe('the command line', () => {
  let dir = '';
  let sandbox: ServerType;
  let sandboxUrl = '';

  before(async () => {
    ensurePackagesBuilt();
    dir = mkdtempSync(path.join(tmpdir(), 'cc-cli-'));
    // The upstream a live backend talks to: the sandbox, on a port of its own.
    const port = await freePort();
    sandboxUrl = `http://127.0.0.1:${port}`;
    const { app } = createSandbox({ baseUrl: sandboxUrl });
    sandbox = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
  });
  after(() => {
    sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('--version prints the package version and exits 0', async () => {
    for (const flag of ['--version', '-v']) {
      const { code, output } = await runCli(dir, {}, [flag]);
      assert.equal(code, 0);
      assert.equal(output.trim(), version);
    }
  });

  test('widget-tag prints the pinned <script> tag under PUBLIC_URL, then the manifest, and exits 0', async () => {
    const manifest = JSON.parse(
      readFileSync(fileURLToPath(import.meta.resolve('crypto-checkout/manifest.json')), 'utf8'),
    ) as { version: string; files: Record<string, string> };
    const { code, output } = await runCli(dir, { PUBLIC_URL: 'https://checkout.shop.example' }, [
      'widget-tag',
    ]);
    assert.equal(code, 0, output);
    const [tag, , ...rest] = output.split('\n');
    assert.equal(
      tag,
      `<script type="module" src="https://checkout.shop.example/widget/v${manifest.version}/crypto-checkout.js" integrity="${manifest.files['crypto-checkout.js']}" crossorigin="anonymous"></script>`,
    );
    assert.deepEqual(JSON.parse(rest.join('\n')), manifest);
  });

  test('an unknown command or flag exits 2 with the usage, serving nothing', async () => {
    const command = await runCli(dir, {}, ['bogus']);
    assert.equal(command.code, 2);
    assert.match(command.stderr, /^Unknown command "bogus"\./);
    assert.match(command.stderr, /Usage: crypto-checkout-backend/);
    assert.doesNotMatch(command.output, /listening/);

    const flag = await runCli(dir, {}, ['--bogus']);
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /^Unknown option '--bogus'\./);
    assert.match(flag.stderr, /Usage: crypto-checkout-backend/);

    const extra = await runCli(dir, {}, ['migrate', 'now']);
    assert.equal(extra.code, 2);
    assert.match(extra.stderr, /^Unknown command "now"\./);
  });

  test('.env in the working directory configures it, the real environment wins, live keys start it live', async () => {
    const cwd = mkdtempSync(path.join(dir, 'env-'));
    const [filePort, envPort] = [await freePort(), await freePort()];
    const live = sandboxUpstreamEnv(sandboxUrl);
    writeFileSync(
      path.join(cwd, '.env'),
      [
        '# as .env.example says: copied to .env',
        ...Object.entries(live).map(([name, value]) => `${name}=${value}`),
        `PORT=${filePort}`,
        `PUBLIC_URL=http://127.0.0.1:${envPort}`,
        'ALLOWED_ORIGINS=https://shop.example',
        'DEFAULT_COUNTRY=FR',
        `DATA_DIR=${path.join(cwd, 'data')}`,
      ].join('\n'),
    );
    const run = startCli(cwd, { PORT: String(envPort) });
    try {
      await untilServing(run);
      assert.match(run.output(), new RegExp(`Read ${cwd}/\\.env \\(variables set in the environment win`));
      // One instance name from the first line on (it is the first), the configured port's, never the PID's.
      const lines = run
        .raw()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string; instance: string });
      assert.match(lines[0]?.msg ?? '', /^Read .*\.env/);
      for (const line of lines) assert.equal(line.instance, `${hostname()}:${envPort}`, line.msg);
      assert.match(
        run.output(),
        new RegExp(`listening on port ${envPort}\\b`),
        'PORT from the environment wins',
      );
      assert.match(run.output(), /UPSTREAM: live/);
      const health = await (await fetch(`http://127.0.0.1:${envPort}/healthz`)).json();
      assert.equal(health.upstream, 'live');
      // A variable only the file sets is read: the catalog's default country is France's.
      const catalog = await (await fetch(`http://127.0.0.1:${envPort}/api/catalog`)).json();
      assert.equal(catalog.country, 'FR');
      // Live keys with an http: PUBLIC_URL are warned about (the port is the one it listens on: no other warning).
      assert.match(run.output(), /^Warning: PUBLIC_URL http:\/\/127\.0\.0\.1:\d+ is http: with live keys/m);
      assert.doesNotMatch(run.output(), /listens on/);
    } finally {
      await stop(run);
    }
  });

  test('a PUBLIC_URL on this machine at another port is warned about; on the sandbox http: is not', async () => {
    const cwd = mkdtempSync(path.join(dir, 'warn-'));
    const port = await freePort();
    const run = startCli(cwd, {
      PORT: String(port),
      PUBLIC_URL: 'http://localhost:3000',
      DATA_DIR: path.join(cwd, 'data'),
    });
    try {
      await untilServing(run);
      assert.match(
        run.output(),
        new RegExp(
          `^Warning: PUBLIC_URL http://localhost:3000 is on this machine at port 3000, but the backend listens on ${port}`,
          'm',
        ),
      );
      assert.doesNotMatch(run.output(), /is http:/, 'no http: warning on the sandbox');
    } finally {
      await stop(run);
    }
  });

  test('a second process on the same SQLite DATA_DIR is refused; a killed holder’s lock is taken over', async () => {
    const cwd = mkdtempSync(path.join(dir, 'lock-'));
    const dataDir = path.join(cwd, 'data');
    const first = startCli(cwd, { PORT: String(await freePort()), DATA_DIR: dataDir });
    let third: Cli | undefined;
    try {
      await untilServing(first);
      assert.match(
        first.output(),
        /crypto-checkout\.sqlite: applied \d+ migration\(s\): 2026-11-25-001-collections/,
      );
      const second = await runCli(cwd, { PORT: String(await freePort()), DATA_DIR: dataDir });
      assert.equal(second.code, 1);
      assert.match(
        second.output,
        new RegExp(`^DATA_DIR ${dataDir} is in use by another process \\(pid ${first.child.pid} on `),
      );
      assert.match(second.output, /DATABASE_URL/, 'it names the way to run several instances');
      assert.doesNotMatch(second.output, /listening|\n\s+at /, 'no server, no stack trace');
      const migrate = await runCli(cwd, { DATA_DIR: dataDir }, ['migrate']);
      assert.equal(migrate.code, 1, 'migrate waits for the server to stop');
      assert.match(migrate.output, /is in use by another process/);

      // kill -9: nothing of the first process runs, its lock goes with it.
      await stop(first, 'SIGKILL');
      const port = await freePort();
      third = startCli(cwd, { PORT: String(port), DATA_DIR: dataDir });
      await untilServing(third);
      assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
      assert.doesNotMatch(third.output(), /applied/, 'the schema was already current');
    } finally {
      await stop(first, 'SIGKILL');
      if (third) await stop(third);
    }
  });

  test('a port another process holds is refused in one sentence that names the fix, without a stack', async () => {
    const cwd = mkdtempSync(path.join(dir, 'port-'));
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const run = await runCli(cwd, { PORT: String(port), DATA_DIR: path.join(cwd, 'data') });
      assert.equal(run.code, 1);
      assert.match(
        run.output,
        new RegExp(
          `port ${port} is already in use by another process: stop it, or set PORT to a free port\\.`,
        ),
      );
      assert.doesNotMatch(run.output, /listening|\n\s+at /, 'no server, no stack trace');
    } finally {
      holder.close();
    }
  });

  test('migrate names the migrations it applied, then says the schema is already up to date', async () => {
    const cwd = mkdtempSync(path.join(dir, 'migrate-'));
    const dataDir = path.join(cwd, 'data');
    const first = await runCli(cwd, { DATA_DIR: dataDir }, ['migrate']);
    assert.equal(first.code, 0, first.output);
    assert.match(
      first.output,
      /^SQLite at .*crypto-checkout\.sqlite: applied \d+ migration\(s\):\n {2}2026-11-25-001-collections$/m,
    );
    const again = await runCli(cwd, { DATA_DIR: dataDir }, ['migrate']);
    assert.equal(again.code, 0, again.output);
    assert.match(again.output, /: already up to date, no migration to apply\.$/m);
  });
});
