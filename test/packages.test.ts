/**
 * The packages as a merchant installs them, following the README's "Install" as written: `npm run release:pack`
 * packs the widget, the backend and the sandbox into a fresh project's vendor/ outside the tree, the project
 * installs them from there (`npm install ./vendor/*.tgz`), and a copy of its package.json, lockfile and vendor/
 * elsewhere installs the same with `npm ci`, as a server would; another project installs `@crypto-checkout/backend`
 * by name from a registry on loopback that serves the same tarballs (as the public registry will once they are
 * published).
 * Each tarball passes publint and arethetypeswrong; in the projects, plain `node` mounts the backend three ways,
 * Vite builds a React page with the widget, and the installed command serves on the sandbox with no keys, live
 * against the upstream the keys name, and without the sandbox says so in one sentence.
 *
 * npm installs from its cache (`--prefer-offline`): `npm ci` of this workspace has put every tarball there; only
 * what it has no copy of (the full metadata `npm install` asks for, once per machine) comes from the registry.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { createSandbox } from '@crypto-checkout/sandbox';
import { type ServerType, serve } from '@hono/node-server';
import { freePort, root } from './harness.ts';
import { type LocalRegistry, startLocalRegistry } from './local-registry.ts';

const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const run = (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, ...env } });
/** As `run`, without blocking this process: for npm talking to the registry this process serves. */
const runBeside = async (cmd: string, args: string[], cwd: string) =>
  (await promisify(execFile)(cmd, args, { cwd, encoding: 'utf8' })).stdout;
/** npm from its cache first, quietly. */
const npmFlags = ['--prefer-offline', '--no-audit', '--no-fund'];
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const { version } = JSON.parse(readFileSync(join(root, 'packages', 'backend', 'package.json'), 'utf8'));

/** The README's "Install" section, from its heading to the next. */
const installSection = readme.slice(readme.indexOf('### Install\n'), readme.indexOf('### Configuration\n'));
/** A line of a shell block of that section, as written (without its comment). */
function readmeLine(start: string): string {
  const line = installSection
    .split('\n')
    .map((text) => text.replace(/\s+#.*$/, '').trim())
    .find((text) => text.startsWith(start));
  assert.ok(line, `the README's Install section has a line starting with "${start}"`);
  return line;
}
/** The sentence the README says the command stops with when there are no keys and no sandbox. */
const missingSandboxSentence = installSection.match(/```text\n(.+)\n```/)?.[1] ?? '';

interface Cli {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** The installed command (`node_modules/.bin/crypto-checkout-backend`) of `project`, with only PATH and `env`. */
function startCli(project: string, env: Record<string, string>, args: string[] = []): Cli {
  const child = spawn(join(project, 'node_modules', '.bin', 'crypto-checkout-backend'), args, {
    cwd: project,
    env: { PATH: process.env['PATH'] ?? '', ACCESS_LOG: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Runs the command to its end (stopped after a minute if it serves instead): exit code, stdout, stderr. */
function runCli(project: string, env: Record<string, string>, args: string[] = []) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(join(project, 'node_modules', '.bin', 'crypto-checkout-backend'), args, {
      cwd: project,
      env: { PATH: process.env['PATH'] ?? '', ACCESS_LOG: 'off', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const deadline = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(deadline);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Serves, then answers /healthz: that answer (the command is stopped after). */
async function healthOf(cli: Cli, port: number): Promise<{ upstream?: string }> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    assert.equal(cli.child.exitCode, null, `the command exited:\n${cli.output()}`);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => (r.ok ? r.json() : undefined),
      () => undefined,
    );
    if (health) return health;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`the command never answered /healthz:\n${cli.output()}`);
}

/** What the command has written, once it holds `pattern` (its lines go out on their own, beside its answers). */
async function printed(cli: Cli, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (!pattern.test(cli.output()) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return cli.output();
}

async function stop(cli: Cli): Promise<void> {
  if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGTERM');
  await cli.exited;
}

describe('the published packages', { timeout: 900_000 }, () => {
  let dir = '';
  let project = '';
  let fromRegistry = '';
  let registry: LocalRegistry | undefined;
  const tarballs: Record<'widget' | 'backend' | 'sandbox', string> = { widget: '', backend: '', sandbox: '' };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crypto-checkout-packages-'));
    // Your project, beside the clone (this tree), with a file of its own in vendor/ and an older version's tarball.
    const clone = join(dir, 'crypto-checkout');
    symlinkSync(root, clone);
    project = join(dir, 'my-shop');
    mkdirSync(join(project, 'vendor'), { recursive: true });
    // What the tests below add to the shop (Hono or Node's adapter, React and Vite), as its development
    // dependencies: the server of the README's "Production" installs without them.
    const devDependencies = Object.fromEntries(
      ['hono', '@hono/node-server', 'react', 'react-dom', '@lit/react', 'vite'].map((name) => [
        name,
        JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version,
      ]),
    );
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'a-shop', private: true, type: 'module', devDependencies }, null, 2),
    );
    writeFileSync(join(project, 'vendor', 'README.md'), 'Tarballs this shop installs.\n');
    writeFileSync(join(project, 'vendor', 'crypto-checkout-backend-0.0.1.tgz'), 'an older release');
    // In the clone: the README's `npm run release:pack -- ../my-shop/vendor` (its folder relative to the clone).
    const pack = readmeLine('cd crypto-checkout && npm ci && npm run release:pack');
    const into = pack.match(/&& npm run release:pack -- (\S+)$/)?.[1];
    assert.equal(into, '../my-shop/vendor', `the README packs into the project's vendor/: ${pack}`);
    run('npm', ['run', 'release:pack', '--', resolve(clone, into)], root);
    const vendor = join(project, 'vendor');
    for (const [key, name] of [
      ['widget', 'crypto-checkout'],
      ['backend', 'crypto-checkout-backend'],
      ['sandbox', 'crypto-checkout-sandbox'],
    ] as const) {
      tarballs[key] = join(vendor, `${name}-${version}.tgz`);
    }
    // The README's `npm install ./vendor/*.tgz`, as a shell runs it (it installs the shop's own dependencies too).
    const install = readmeLine('npm install ./vendor/');
    assert.equal(install, 'npm install ./vendor/*.tgz');
    run('sh', ['-c', `${install} ${npmFlags.join(' ')}`], project);

    // Tomorrow's way: by name, from a registry that has the same tarballs.
    registry = await startLocalRegistry(
      Object.values(tarballs),
      run('npm', ['config', 'get', 'registry'], root).trim(),
    );
    fromRegistry = join(dir, 'registry-shop');
    mkdirSync(fromRegistry);
    writeFileSync(
      join(fromRegistry, 'package.json'),
      JSON.stringify({ name: 'b-shop', private: true }, null, 2),
    );
    const byName = readmeLine('npm install @crypto-checkout/backend');
    assert.equal(byName, 'npm install @crypto-checkout/backend');
    await runBeside(
      'sh',
      ['-c', `${byName} --registry ${registry.url}/ ${npmFlags.join(' ')}`],
      fromRegistry,
    );
  });
  after(async () => {
    await registry?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the tarballs name each other by range, satisfied by the versions packed beside them', () => {
    const manifest = JSON.parse(run('tar', ['-xzOf', tarballs.backend, 'package/package.json'], root));
    assert.equal(manifest.dependencies['crypto-checkout'], `^${version}`);
    assert.equal(manifest.optionalDependencies['@crypto-checkout/sandbox'], `^${version}`);
    for (const tarball of Object.values(tarballs)) {
      assert.match(
        run('tar', ['tzf', tarball], root),
        /^package\/CHANGELOG\.md$/m,
        `${tarball} has its CHANGELOG`,
      );
    }
    const installed = (project: string, name: string) =>
      JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')).version;
    for (const name of ['crypto-checkout', '@crypto-checkout/backend', '@crypto-checkout/sandbox']) {
      assert.equal(installed(project, name), version, `${name} from the tarballs`);
      assert.equal(installed(fromRegistry, name), version, `${name} from the registry, by name`);
    }
  });

  test("release:pack replaces the older tarballs of the three in the shop's vendor/, and nothing else there", () => {
    assert.deepEqual(readdirSync(join(project, 'vendor')).sort(), [
      'README.md',
      `crypto-checkout-${version}.tgz`,
      `crypto-checkout-backend-${version}.tgz`,
      `crypto-checkout-sandbox-${version}.tgz`,
    ]);
  });

  test('each tarball passes publint and arethetypeswrong, and carries its README', () => {
    for (const [name, tarball] of Object.entries(tarballs)) {
      assert.ok(tarball, `${name} was packed`);
      run(bin('publint'), ['run', '--strict', tarball], root);
      run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii'], root);
      assert.match(run('tar', ['tzf', tarball], root), /^package\/README\.md$/m, `${name} has a README`);
    }
    const backendFiles = run('tar', ['tzf', tarballs.backend], root);
    assert.match(backendFiles, /^package\/dist\/index\.js$/m);
    assert.doesNotMatch(backendFiles, /^package\/src\//m, 'the backend ships its build, not its sources');
  });

  test('the backend is typed: a TypeScript shop type-checks against it', () => {
    writeFileSync(
      join(project, 'check.ts'),
      `import { type Checkout, createCheckout, createCheckoutToken, loadConfig } from '@crypto-checkout/backend';
const config = loadConfig({ PORT: '1' });
const port: number = config.port;
const pending: Promise<Checkout> = createCheckout(config);
// @ts-expect-error the config is an object, not a string
createCheckout('nope');
export { createCheckoutToken, pending, port };
`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['check.ts'],
      }),
    );
    run(bin('tsc'), ['-p', 'tsconfig.json'], project);
  });

  test('plain node mounts it in a Hono app, on Node http, and as a fetch handler: each answers /api/catalog', async () => {
    writeFileSync(
      join(project, 'mounts.mjs'),
      `import { createServer } from 'node:http';
import { getRequestListener, serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createCheckout, loadConfig } from '@crypto-checkout/backend';

const [honoPort, nodePort] = [Number(process.env.HONO_PORT), Number(process.env.NODE_PORT)];
const configAt = (port, path) =>
  loadConfig({ ...process.env, PORT: String(port), PUBLIC_URL: \`http://127.0.0.1:\${port}\${path}\`, ACCESS_LOG: 'off' });
const countries = async (url) => {
  const response = await fetch(url);
  const body = await response.json();
  return { status: response.status, countries: body.countries?.length ?? 0 };
};

// A Hono app the merchant already has, the checkout routed under /checkout.
const mounted = await createCheckout(configAt(honoPort, '/checkout'));
const shop = new Hono().get('/', (c) => c.text('my shop')).route('/checkout', mounted.app);
const honoServer = serve({ fetch: shop.fetch, port: honoPort, hostname: '127.0.0.1' });

// A plain Node http server, through Hono's Node adapter.
const onNode = await createCheckout(configAt(nodePort, ''));
const nodeServer = createServer(getRequestListener(onNode.fetch)).listen(nodePort, '127.0.0.1');
await new Promise((resolve) => nodeServer.once('listening', resolve));

const result = {
  hono: await countries(\`http://127.0.0.1:\${honoPort}/checkout/api/catalog?country=DE\`),
  shopHome: await (await fetch(\`http://127.0.0.1:\${honoPort}/\`)).text(),
  node: await countries(\`http://127.0.0.1:\${nodePort}/api/catalog?country=DE\`),
  // The web-standard handler, called as Next.js, Bun or Deno would (its upstream is the Node server's sandbox).
  fetchHandler: await onNode.fetch(new Request(\`http://127.0.0.1:\${nodePort}/healthz\`)).then((r) => r.json()),
};
console.log(JSON.stringify(result));
honoServer.close();
nodeServer.close();
await Promise.all([mounted.close(), onNode.close()]);
process.exit(0);
`,
    );
    const output = run(process.execPath, ['mounts.mjs'], project, {
      HONO_PORT: String(await freePort()),
      NODE_PORT: String(await freePort()),
      DATA_DIR: join(dir, 'data'),
    });
    const result = JSON.parse(output.trim().split('\n').pop() ?? '{}');
    assert.equal(result.hono.status, 200);
    assert.ok(result.hono.countries > 10, `the Hono mount lists countries: ${output}`);
    assert.equal(result.shopHome, 'my shop', "the shop's own routes still answer");
    assert.equal(result.node.status, 200);
    assert.ok(result.node.countries > 10, `the Node mount lists countries: ${output}`);
    assert.deepEqual(result.fetchHandler, { ok: true, upstream: 'sandbox', upstreamDrift: 0, quoteDrift: 0 });
  });

  test('the CLI from the tarball lists every variable with --help and names every problem at once', async () => {
    const cli = join(project, 'node_modules', '.bin', 'crypto-checkout-backend');
    const help = run(cli, ['--help'], project);
    const { envVariables } = await import('../packages/backend/src/config.ts');
    // A variable the example leaves commented out (a rotation line, PRODUCTS_FILE) is listed as `# NAME=…`.
    for (const name of envVariables)
      assert.match(help, new RegExp(`^(# )?${name}=`, 'm'), `--help lists ${name}`);
    let refused: { status: number | null; stderr: string } = { status: 0, stderr: '' };
    try {
      run(cli, [], project, { RAMP_API_URL: 'https://ramp.example', MARKUP: '9' });
    } catch (error) {
      refused = error as { status: number; stderr: string };
    }
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /MARKUP/);
    assert.match(refused.stderr, /PAY_API_KEY is missing/);
  });

  test('Vite builds a React page with the widget from its tarball', () => {
    const web = join(project, 'web');
    mkdirSync(web);
    writeFileSync(
      join(web, 'index.html'),
      '<!doctype html><html><body><div id="root"></div><script type="module" src="./main.js"></script></body></html>',
    );
    writeFileSync(
      join(web, 'main.js'),
      `import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { CryptoCheckout } from 'crypto-checkout/react';
createRoot(document.getElementById('root')).render(
  createElement(CryptoCheckout, { mode: 'buy', api: '/checkout/api', amount: '50' }),
);
`,
    );
    run(join(project, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], web);
    const assets = join(web, 'dist', 'assets');
    const code = readdirSync(assets)
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(join(assets, file), 'utf8'))
      .join('\n');
    assert.match(code, /crypto-checkout/, 'the element is in the build');
    assert.match(code, /checkout-quote/, "the React wrapper maps the element's events");
  });
  test("installed from the tarballs, the README's `npx crypto-checkout-backend` serves on the sandbox with no keys", async () => {
    assert.equal(readmeLine('npx crypto-checkout-backend'), 'npx crypto-checkout-backend');
    assert.equal(
      run('npx', ['--no-install', 'crypto-checkout-backend', '--version'], project).trim(),
      version,
    );
    const port = await freePort();
    const cli = startCli(project, { PORT: String(port), DATA_DIR: join(dir, 'sandbox-data') });
    try {
      assert.equal((await healthOf(cli, port)).upstream, 'sandbox');
      assert.match(await printed(cli, /UPSTREAM/), /UPSTREAM: the offline SANDBOX/);
      const page = await fetch(`http://127.0.0.1:${port}/sandbox`);
      assert.equal(page.status, 200, 'the sandbox is served beside the API');
    } finally {
      await stop(cli);
    }
  });

  test("the shop's package.json, lockfile and vendor/, copied elsewhere: npm ci installs the same, which serves", async () => {
    // What npm wrote names the tarballs inside the project, never the clone's folder.
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    assert.deepEqual(manifest.dependencies, {
      '@crypto-checkout/backend': `file:vendor/crypto-checkout-backend-${version}.tgz`,
      '@crypto-checkout/sandbox': `file:vendor/crypto-checkout-sandbox-${version}.tgz`,
      'crypto-checkout': `file:vendor/crypto-checkout-${version}.tgz`,
    });
    assert.doesNotMatch(
      readFileSync(join(project, 'package-lock.json'), 'utf8'),
      /crypto-checkout\/release|"file:\.\./,
    );
    // The server of the operators' "Production" (docs/production.md): /srv/crypto-checkout, no clone beside it, installed by its
    // `npm ci` line. Offline: everything but the vendored tarballs comes from npm's cache, as the install in the
    // project left it.
    const server = join(dir, 'srv', 'crypto-checkout');
    mkdirSync(server, { recursive: true });
    for (const kept of ['package.json', 'package-lock.json', 'vendor'])
      cpSync(join(project, kept), join(server, kept), { recursive: true });
    const production = readFileSync(join(root, 'docs', 'production.md'), 'utf8');
    const ci = production.match(/^cd \/srv\/crypto-checkout && sudo (npm ci[^#\n]*?)\s*(#|$)/m)?.[1];
    assert.equal(ci, 'npm ci --omit=dev', 'docs/production.md installs the server with npm ci');
    await runBeside('sh', ['-c', `${ci} --offline --no-audit --no-fund`], server);
    assert.ok(
      !existsSync(join(server, 'node_modules', 'vite')),
      "the shop's development dependencies are left out",
    );
    assert.equal(
      run(join(server, 'node_modules', '.bin', 'crypto-checkout-backend'), ['--version'], server).trim(),
      version,
    );
    // Serving on SQLite needs its native binary, an optional dependency npm ci kept; no keys: the sandbox, too.
    const port = await freePort();
    const cli = startCli(server, { PORT: String(port), DATA_DIR: join(dir, 'server-data') });
    try {
      assert.equal((await healthOf(cli, port)).upstream, 'sandbox');
      assert.match(await printed(cli, /STORAGE/), /STORAGE: SQLite at /);
    } finally {
      await stop(cli);
    }
  });

  test('with keys it starts live, against the upstream they name', async () => {
    // The upstream: the sandbox, on a port of its own, as the real service would be elsewhere.
    const upstreamPort = await freePort();
    const upstreamUrl = `http://127.0.0.1:${upstreamPort}`;
    const upstream: ServerType = serve({
      fetch: createSandbox({ baseUrl: upstreamUrl }).app.fetch,
      port: upstreamPort,
      hostname: '127.0.0.1',
    });
    const port = await freePort();
    const cli = startCli(project, {
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ALLOWED_ORIGINS: 'https://shop.example',
      CHECKOUT_TOKEN_SECRET: 'a-checkout-token-secret-0123456789',
      ADMIN_TOKEN: 'an-admin-token-0123456789abcdef',
      RAMP_API_URL: `${upstreamUrl}/ramp`,
      RAMP_WIDGET_URL: `${upstreamUrl}/ramp`,
      RAMP_PUBLIC_KEY: 'pk_sandbox_shop',
      RAMP_SECRET_KEY: 'sk_sandbox_shop',
      PAY_API_URL: `${upstreamUrl}/pay-api`,
      PAY_API_KEY: 'pay_sandbox_shop',
      PAY_WEBHOOK_SECRET: 'whsec_sandbox_shop',
      PRODUCTS_FILE: 'none',
      DATA_DIR: join(dir, 'live-data'),
    });
    try {
      assert.equal((await healthOf(cli, port)).upstream, 'live');
      assert.match(
        await printed(cli, /UPSTREAM/),
        new RegExp(`UPSTREAM: live — ramp ${upstreamUrl}/ramp, payments ${upstreamUrl}/pay-api`),
      );
      // The catalog comes from the upstream's ramp API, with its keys.
      const catalog = await (await fetch(`http://127.0.0.1:${port}/api/catalog?country=DE`)).json();
      assert.ok(catalog.countries?.length > 10, JSON.stringify(catalog).slice(0, 200));
      assert.equal((await fetch(`http://127.0.0.1:${port}/sandbox`)).status, 404, 'no sandbox when live');
    } finally {
      await stop(cli);
      upstream.close();
    }
  });

  test('installed by name from a registry, it brings the sandbox and serves on it with no keys', async () => {
    const port = await freePort();
    const cli = startCli(fromRegistry, { PORT: String(port), DATA_DIR: join(dir, 'registry-data') });
    try {
      assert.equal((await healthOf(cli, port)).upstream, 'sandbox');
    } finally {
      await stop(cli);
    }
  });

  test('without the sandbox (npm ci --omit=optional) and without keys: one sentence, exit 1, no stack trace', async () => {
    await runBeside(
      'npm',
      ['ci', '--omit=optional', '--registry', `${registry?.url}/`, ...npmFlags],
      fromRegistry,
    );
    const refused = await runCli(fromRegistry, {
      PORT: String(await freePort()),
      DATA_DIR: join(dir, 'omitted'),
    });
    assert.equal(refused.code, 1);
    assert.ok(
      missingSandboxSentence.startsWith('No upstream keys are set'),
      'the README quotes the sentence',
    );
    assert.equal(refused.stderr, `${missingSandboxSentence}\n`);
    assert.equal(refused.stdout, '');
    // --omit=optional leaves out SQLite's native binary too (libsql's optional dependency): also named, no trace.
    const migrate = await runCli(fromRegistry, { DATA_DIR: join(dir, 'omitted') }, ['migrate']);
    assert.equal(migrate.code, 1);
    assert.match(
      migrate.stderr,
      /^SQLite's native binary for this machine \(@libsql\/[\w-]+, an optional dependency of libsql\) is not installed/,
    );
    assert.doesNotMatch(`${refused.stderr}${migrate.stderr}`, /\n\s+at |Require stack|ERR_MODULE_NOT_FOUND/);
  });
});
