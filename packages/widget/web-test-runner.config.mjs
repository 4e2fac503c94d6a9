// Browser tests for the widget: web-test-runner + @open-wc/testing in Debian's Chromium, Firefox and WebKit,
// against a real backend running on the sandbox.
//
// - Files: test/browser/**/*.test.ts of this package (node tests of the widget live beside that folder).
// - Browsers: `browserLaunchers()` below, the one place that says which browsers run them.
// - Backend: the combined server (backend at /api, the script-tag bundle at /widget, the sandbox at /sandbox)
//   runs as a child process on a free port: demo/server.ts (as `npm start` runs it), on the sandbox.
//   WTR_BACKEND_URL=http://localhost:8787 uses one that is already running instead.
// - The dev server proxies /api, /sandbox, /widget and /healthz to it (streaming, so server-sent events
//   arrive as they are sent): a test page uses `api="/api"` on its own origin, as a storefront would, and the
//   backend's PUBLIC_URL is this dev server's origin, so every link it mints (pay pages, ramp pages, return
//   routes) comes back through the proxy.
// - Server commands for tests (packages/widget/test/support.ts wraps them): minting checkout and customer
//   tokens with the backend's secret, a source file (a language's table) held back or failed, and a bare-import
//   shim serving React as ES modules.
// - The counts go to WTR_SUMMARY as JSON for scripts/test.mjs.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter } from '@web/test-runner';
import { browsers } from '../../scripts/browsers.mjs';

/** The widget package (this file's folder) and the repository (whose node_modules and backend the tests use). */
const widget = fileURLToPath(new URL('.', import.meta.url));
const root = join(widget, '..', '..');
const tsconfig = join(root, 'tsconfig.json');

// ---- The browsers ----

/**
 * The browsers the widget's tests run in, each a web-test-runner launcher: Debian's Chromium, Firefox ESR and
 * WebKitGTK, set up in scripts/browsers.mjs (the e2e tests share it). `WTR_BROWSERS=firefox` picks some.
 */
function browserLaunchers() {
  return browsers;
}

// ---- The backend the tests talk to, and the commands they call ----

/** Test-only secrets, given to the backend and used by the token commands. */
const secrets = {
  CHECKOUT_TOKEN_SECRET: 'wtr-checkout-token-secret-0123456789',
  ADMIN_TOKEN: 'wtr-admin-token-0123456789abcdef',
};

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const port = Number(process.env.WTR_PORT) || (await freePort());
const origin = `http://localhost:${port}`;

/**
 * Writes the pass/fail counts for scripts/test.mjs to add up; and, where WTR_RESULTS names a file, each test's
 * outcome (engine, file, title, passed) for the accessibility report (scripts/conformance-report.ts).
 */
function summaryReporter() {
  return {
    onTestRunFinished({ sessions }) {
      let passed = 0;
      let failed = 0;
      const results = [];
      for (const session of sessions) {
        const walk = (suite) => {
          for (const test of suite?.tests ?? []) {
            if (test.skipped) continue;
            if (test.passed) passed += 1;
            else failed += 1;
            results.push({
              browser: session.browser.name,
              file: session.testFile,
              name: test.name,
              passed: test.passed,
            });
          }
          for (const child of suite?.suites ?? []) walk(child);
        };
        walk(session.testResults);
        if (!session.passed && (session.errors?.length ?? 0) > 0) failed += 1;
      }
      if (process.env.WTR_SUMMARY) writeFileSync(process.env.WTR_SUMMARY, JSON.stringify({ passed, failed }));
      if (process.env.WTR_RESULTS) writeFileSync(process.env.WTR_RESULTS, JSON.stringify(results));
    },
  };
}

/** Starts the combined server as a child process, waits for /healthz, stops it at the end; and the proxy to it. */
function backendPlugin() {
  let target = process.env.WTR_BACKEND_URL ? new URL(process.env.WTR_BACKEND_URL) : undefined;
  let child;
  let dataDir;
  const log = [];

  const stop = () => {
    if (child && child.exitCode === null) child.kill('SIGTERM');
    child = undefined;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    dataDir = undefined;
  };

  async function waitForHealth(address, deadline) {
    let lastError;
    while (Date.now() < deadline) {
      if (child && child.exitCode !== null) break;
      try {
        const response = await fetch(new URL('/healthz', address));
        if (response.ok) return;
        lastError = new Error(`/healthz answered ${response.status}`);
      } catch (error) {
        lastError = error;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const exited = child && child.exitCode !== null ? ` (it exited with ${child.exitCode})` : '';
    throw new Error(
      `The backend for the browser tests did not become healthy at ${address}${exited}: ${lastError?.message ?? ''}\n${log.join('')}`,
    );
  }

  /**
   * A new connection for each proxied request. Node's default agent keeps sockets alive for 5 s, the backend
   * closes idle ones after 5 s: a request sent on a socket the backend is closing at that moment fails with
   * ECONNRESET (it failed "mints checkout tokens the backend accepts" once in ten loaded runs, as a 502 "proxy
   * error"). Loopback connections cost nothing; a POST must not be retried.
   */
  const upstreamAgent = new Agent({ keepAlive: false });
  /** The browser's headers less the hop-by-hop ones (its `Connection: keep-alive` is for the dev server). */
  const forwardedHeaders = (headers) => {
    const { connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
    return rest;
  };

  /** Koa middleware (the config's `middleware` run ahead of the dev server's own); other paths fall through. */
  async function proxy(ctx, next) {
    if (!target || !/^\/(api|sandbox|widget)(\/|$)|^\/healthz$/.test(ctx.path)) return next();
    ctx.respond = false;
    if (backendDown && ctx.path.startsWith('/api/')) {
      ctx.req.socket.destroy();
      return;
    }
    await new Promise((resolve) => {
      const upstream = request(
        new URL(ctx.req.url, target),
        { method: ctx.req.method, headers: forwardedHeaders(ctx.req.headers), agent: upstreamAgent },
        (response) => {
          ctx.res.writeHead(response.statusCode ?? 502, response.headers);
          // Server-sent events: send the headers now, then each chunk as it comes (pipe does not buffer).
          ctx.res.flushHeaders();
          response.pipe(ctx.res);
          response.on('end', resolve);
          response.on('error', resolve);
        },
      );
      upstream.on('error', (error) => {
        if (!ctx.res.headersSent) ctx.res.writeHead(502, { 'content-type': 'text/plain' });
        ctx.res.end(`proxy error: ${error.message}`);
        resolve();
      });
      // A page that goes away (a test ended mid-stream) ends the upstream request too.
      ctx.res.on('close', () => {
        upstream.destroy();
        resolve();
      });
      ctx.req.pipe(upstream);
    });
  }

  const plugin = {
    name: 'crypto-checkout-backend',
    async serverStart() {
      if (!target) {
        const entry = join(root, 'demo', 'server.ts');
        const backendPort = await freePort();
        const address = new URL(`http://127.0.0.1:${backendPort}`);
        dataDir = mkdtempSync(join(tmpdir(), 'crypto-checkout-wtr-'));
        child = spawn(process.execPath, ['--import', 'tsx', entry], {
          cwd: root,
          env: {
            ...process.env,
            ...secrets,
            PORT: String(backendPort),
            PUBLIC_URL: origin,
            ALLOWED_ORIGINS: `${origin},http://127.0.0.1:${port}`,
            DATA_DIR: dataDir,
            // The whole suite comes from one address and sends far more catalog and quote requests a minute than
            // a shopper would; the per-client limit has its own tests in packages/backend.
            RATE_LIMIT_PER_MINUTE: '100000',
            // The widget's tests time answers with faults on the ramp's pricing endpoint (a slow answer, a
            // failure), so every quote asks the ramp here; derived quotes (same shape) are tested in packages/backend.
            QUOTE_DERIVE: 'off',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const keep = (chunk) => {
          log.push(chunk.toString());
          if (log.length > 200) log.shift();
        };
        child.stdout.on('data', keep);
        child.stderr.on('data', keep);
        process.once('exit', stop);
        await waitForHealth(address, Date.now() + 60_000);
        target = address;
      } else {
        await waitForHealth(target, Date.now() + 30_000);
      }
    },
    serverStop: stop,
  };
  return { plugin, proxy };
}

/** `executeServerCommand('crypto-checkout:…')` for support.ts: tokens a merchant's server would mint. */
/**
 * While true, the proxy drops every /api request's connection without an answer: the page sees what a shopper
 * offline or with the server down sees (a failed fetch). Only one test file runs at a time (concurrency 1).
 */
let backendDown = false;

/**
 * Files a test holds back or fails (`crypto-checkout:hold-file`), by the end of their path (`internal/lang/sv.ts`):
 * `hold` keeps each request for it waiting until `release`, `fail` answers 503 (what a shopper offline or on a
 * flaky network meets when a chunk is fetched). Each rule counts the requests it met, so a test waits for one to
 * arrive rather than for a time. Only one test file runs at a time (concurrency 1); a test clears its rules.
 */
const heldFiles = new Map();

/**
 * Koa middleware holding or failing what `heldFiles` names; other paths fall through. A language's table is asked
 * for again by every page: web-test-runner marks each file it serves cacheable for a year (its cache middleware,
 * outside this one, reads the path's extension once the answer is made), and a table an earlier test file loaded
 * would otherwise never reach a rule. So its path loses the extension on the way out, and it is `no-cache`.
 */
async function holdFiles(ctx, next) {
  if (/\/internal\/lang\/\w+\.ts$/.test(ctx.path)) {
    await applyRule(ctx, next);
    ctx.set('cache-control', 'no-cache');
    ctx.path = ctx.path.replace(/\.ts$/, '');
    return;
  }
  return applyRule(ctx, next);
}

/** Holds or fails the request when a rule of `heldFiles` names its path. */
async function applyRule(ctx, next) {
  const rule = [...heldFiles.entries()].find(([end]) => ctx.path.endsWith(`/${end}`))?.[1];
  if (!rule) return next();
  rule.requests += 1;
  if (rule.how === 'fail') {
    ctx.status = 503;
    ctx.body = 'failed by a test (crypto-checkout:hold-file)';
    return;
  }
  await rule.released;
  return next();
}

/** `{ file, how: 'hold' | 'fail' | 'release' | 'count' }` → how many requests for `file` its rule met so far. */
function holdFileRule({ file, how }) {
  const rule = heldFiles.get(file);
  if (how === 'count') return rule?.requests ?? 0;
  if (how === 'release') {
    rule?.release();
    heldFiles.delete(file);
    return rule?.requests ?? 0;
  }
  rule?.release();
  let release;
  const released = new Promise((resolve) => {
    release = resolve;
  });
  heldFiles.set(file, { how, requests: 0, released, release });
  return 0;
}

function commandsPlugin() {
  let tokens;
  const load = async () => {
    if (!tokens) {
      const { tsImport } = await import('tsx/esm/api');
      tokens = await tsImport(join(root, 'packages', 'backend', 'src', 'tokens.ts'), import.meta.url);
    }
    return tokens;
  };
  /** The widget copies served for test/browser/pinned-scripts.test.ts (test/widget-copy.ts), stopped at the end. */
  const copies = [];
  return {
    name: 'crypto-checkout-commands',
    async serverStop() {
      await Promise.all(copies.splice(0).map((copy) => copy.close()));
    },
    async executeCommand({ command, payload }) {
      // A copy of the built bundle on a server of its own, its files changed on disk as `payload.changes` say:
      // `{ prefix, prepend }` puts code before a file's own, `{ prefix, flip: true }` changes one byte in its
      // first string; and `payload.page` at /storefront.html. Answers its origin and the changed files' names.
      if (command === 'crypto-checkout:widget-copy') {
        const { tsImport } = await import('tsx/esm/api');
        const { serveWidgetCopy, tamper } = await tsImport(
          join(widget, 'test', 'widget-copy.ts'),
          import.meta.url,
        );
        const copy = await serveWidgetCopy(payload?.page);
        copies.push(copy);
        const changed = (payload?.changes ?? []).map(({ prefix, prepend, flip }) =>
          tamper(copy, prefix, (code) =>
            prepend
              ? code.replace(/^(\/\/#[^\n]*\n)?/, `$1${prepend}`)
              : flip
                ? code.replace(/`([A-Za-z])/, (_all, c) => `\`${c === 'x' ? 'y' : 'x'}`)
                : code,
          ),
        );
        return { origin: copy.origin, changed };
      }
      // The backend unreachable (a dropped connection, as offline or a server down): see `backendDown`.
      if (command === 'crypto-checkout:backend-down') {
        backendDown = Boolean(payload);
        return backendDown;
      }
      // A source file held back or failed: see `heldFiles`.
      if (command === 'crypto-checkout:hold-file') return holdFileRule(payload);
      if (command === 'crypto-checkout:checkout-token') {
        return (await load()).createCheckoutToken(payload, secrets.CHECKOUT_TOKEN_SECRET);
      }
      if (command === 'crypto-checkout:customer-token') {
        return (await load()).createCustomerToken(payload, secrets.CHECKOUT_TOKEN_SECRET);
      }
      if (command === 'crypto-checkout:backend') {
        return { origin, adminToken: secrets.ADMIN_TOKEN };
      }
      return undefined;
    },
  };
}

/**
 * React ships CommonJS only. Bare imports of react, react-dom/client and react/jsx-runtime are served as
 * ES modules bundled by esbuild, with React itself external to the others so that there is one copy.
 */
function reactEsmPlugin() {
  const shimmed = ['react', 'react/jsx-runtime', 'react-dom', 'react-dom/client'];
  const prefix = '/__esm/';
  const cache = new Map();
  async function bundle(id) {
    const { build } = await import('esbuild');
    // The export names, read in a separate Node: React's development build writes to a console that
    // web-test-runner has replaced in this process.
    const names = JSON.parse(
      execFileSync(process.execPath, ['-p', `JSON.stringify(Object.keys(require(${JSON.stringify(id)})))`], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, NODE_ENV: 'development' },
      }),
    ).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
    const contents = `import * as m from ${JSON.stringify(id)};
const d = m.default ?? m;
export default d;
export const { ${names.join(', ')} } = d;`;
    const result = await build({
      stdin: { contents, resolveDir: root, loader: 'js' },
      bundle: true,
      write: false,
      format: 'esm',
      target: 'es2022',
      plugins: [
        {
          // The other shimmed packages stay imports of their own ES module (one React on the page): a
          // `require('react')` inside react-dom gets a CommonJS view of `import * as … from 'react'`.
          name: 'shared-react',
          setup(esbuild) {
            const others = shimmed.filter((other) => other !== id);
            const filter = new RegExp(`^(${others.map((other) => other.replace('/', '\\/')).join('|')})$`);
            esbuild.onResolve({ filter }, (args) =>
              args.namespace === 'shared-react'
                ? { path: args.path, external: true }
                : { path: args.path, namespace: 'shared-react' },
            );
            esbuild.onLoad({ filter: /.*/, namespace: 'shared-react' }, (args) => ({
              contents: `import * as m from ${JSON.stringify(args.path)}; export default m.default; export * from ${JSON.stringify(args.path)};`,
              loader: 'js',
            }));
          },
        },
      ],
      define: { 'process.env.NODE_ENV': '"development"' },
      logLevel: 'silent',
    });
    return result.outputFiles[0].text;
  }
  return {
    name: 'react-esm',
    resolveImport({ source }) {
      if (shimmed.includes(source)) return `${prefix}${source}.js`;
      return undefined;
    },
    async serve(context) {
      if (!context.path.startsWith(prefix)) return undefined;
      const id = context.path.slice(prefix.length, -'.js'.length);
      if (!shimmed.includes(id)) return undefined;
      if (!cache.has(id)) cache.set(id, bundle(id));
      return { body: await cache.get(id), type: 'js' };
    },
  };
}

const backend = backendPlugin();

export default {
  // Absolute, so that the config runs from the repository (`npm test -- browser`) and from this folder alike.
  files: [join(widget, 'test', 'browser', '**', '*.test.ts')],
  rootDir: root,
  hostname: 'localhost',
  port,
  nodeResolve: true,
  concurrency: 1,
  middleware: [holdFiles, backend.proxy],
  plugins: [
    backend.plugin,
    commandsPlugin(),
    reactEsmPlugin(),
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig }),
  ],
  reporters: [defaultReporter(), summaryReporter()],
  // One engine after another: the tests share one backend and sandbox.
  browsers: browserLaunchers(),
  concurrentBrowsers: 1,
  // A test's bound, above test/support.ts's `patience` for any one wait: on a loaded machine a journey of several
  // waits takes many seconds where it takes one on a quiet machine, and a test ends as soon as its waits are met.
  testFramework: { config: { timeout: 90_000 } },
  // A file's bound (web-test-runner's default is 2 minutes): a file of many journeys in WebKit on a loaded
  // machine can take longer.
  testsFinishTimeout: 600_000,
};
