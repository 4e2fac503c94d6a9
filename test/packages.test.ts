/**
 * The packages as a merchant installs them from npm: `npm pack` of the widget, the backend and the sandbox, checked
 * by publint and arethetypeswrong, then installed from the tarballs (not through the workspace) into a fresh
 * project outside the tree, where plain `node` mounts the backend three ways and Vite builds a React page with the
 * widget.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freePort, root } from './harness.ts';

const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const run = (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, ...env } });

describe('the published packages', { timeout: 600_000 }, () => {
  let dir = '';
  let project = '';
  const tarballs: Record<'widget' | 'backend' | 'sandbox', string> = { widget: '', backend: '', sandbox: '' };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'crypto-checkout-packages-'));
    const packs = join(dir, 'packs');
    mkdirSync(packs);
    run(
      'npm',
      [
        'pack',
        '--pack-destination',
        packs,
        '-w',
        'packages/widget',
        '-w',
        'packages/sandbox',
        '-w',
        'packages/backend',
      ],
      root,
    );
    for (const file of readdirSync(packs)) {
      const path = join(packs, file);
      if (file.startsWith('crypto-checkout-backend-')) tarballs.backend = path;
      else if (file.startsWith('crypto-checkout-sandbox-')) tarballs.sandbox = path;
      else if (file.startsWith('crypto-checkout-')) tarballs.widget = path;
    }
    project = join(dir, 'shop');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'a-shop', private: true, type: 'module' }, null, 2),
    );
    // The tarballs, and what a shop adds itself: Hono or Node's adapter, React and Vite.
    const wanted = (name: string) =>
      `${name}@${JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version}`;
    run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        tarballs.widget,
        tarballs.sandbox,
        tarballs.backend,
        ...['hono', '@hono/node-server', 'react', 'react-dom', '@lit/react', 'vite'].map(wanted),
      ],
      project,
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

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
    for (const name of envVariables) assert.match(help, new RegExp(`^${name}=`, 'm'), `--help lists ${name}`);
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
});
