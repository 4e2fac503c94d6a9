/**
 * `.env.example` copied VERBATIM to `.env`, as `--help` and its first line tell a merchant to, with only what a
 * merchant fills in first (the upstream URLs, pointed at a running sandbox, and the four upstream keys): the built
 * command refuses to serve and `check` fails on every sample value left in it, naming its `.env` line; each
 * rotation or credential line it ships commented out is refused once uncommented, naming its variable; with the
 * merchant's own values it starts, and the values earlier examples shipped open nothing.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { createSandbox } from '@crypto-checkout/sandbox';
import { type ServerType, serve } from '@hono/node-server';
// @ts-expect-error: plain JavaScript shared with scripts/test.mjs (no types).
import { ensurePackagesBuilt } from '../../../scripts/ensure.mjs';
import { tokenSha256 } from '../src/admin/credentials.ts';
import { documentedSamples, sandboxDemoKeys } from '../src/secrets/samples.ts';
import { problemsOf } from './config-env.ts';
import { freePort, waitFor } from './servers.ts';
import { fixtureProductsFile } from './support.ts';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const example = readFileSync(new URL('../.env.example', import.meta.url), 'utf8');

/** The variables of `.env.example` that hold a secret (or a credential's hash, or a password in a URL). */
const secretNames = [
  'RAMP_PUBLIC_KEY',
  'RAMP_SECRET_KEY',
  'PAY_API_KEY',
  'PAY_WEBHOOK_SECRET',
  'CHECKOUT_TOKEN_SECRET',
  'ADMIN_TOKEN',
  'ADMIN_CREDENTIALS',
  'DATABASE_URL',
  'MERCHANT_WEBHOOK_SECRET',
  'METRICS_TOKEN',
  'CHECKOUT_TOKEN_SECRET_PREVIOUS',
  'MERCHANT_WEBHOOK_SECRET_PREVIOUS',
  'PAY_WEBHOOK_SECRET_PREVIOUS',
  'RAMP_SECRET_KEY_PREVIOUS',
];

/** Each line of `text` that sets a variable: live (`NAME=`) or commented out (`# NAME=`), 1-based. */
function settings(text: string) {
  return text.split('\n').flatMap((line, index) => {
    const match = /^(#\s*)?([A-Z][A-Z0-9_]+)=(.*)$/.exec(line);
    return match
      ? [{ line: index + 1, commented: Boolean(match[1]), name: match[2] ?? '', value: match[3] ?? '' }]
      : [];
  });
}

/** `text` with the live line of `name` given `value`, where the line is (nothing else moves). */
function filled(text: string, values: Record<string, string>): string {
  return text
    .split('\n')
    .map((line) => {
      const name = /^([A-Z][A-Z0-9_]+)=/.exec(line)?.[1];
      return name && name in values ? `${name}=${values[name]}` : line;
    })
    .join('\n');
}

/** `text` with the commented line of `name` uncommented, as an operator pasting it would, its value kept or given. */
function uncommented(text: string, name: string, value?: string): string {
  const pattern = new RegExp(`^#\\s*${name}=(.*)$`, 'm');
  assert.match(text, pattern, `.env.example has a commented ${name} line`);
  return text.replace(pattern, (_line, kept: string) => `${name}=${value ?? kept}`);
}

interface Run {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** The built command in `cwd`, with PATH and `env` only: the rest comes from `cwd/.env`. */
function startCli(cwd: string, env: Record<string, string>, args: string[] = []): Run {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Runs it to its end; one still running after a minute (it served where it should have refused) is killed. */
async function runCli(cwd: string, env: Record<string, string>, args: string[] = []) {
  const run = startCli(cwd, env, args);
  const deadline = setTimeout(() => run.child.kill('SIGKILL'), 60_000);
  const code = await run.exited;
  clearTimeout(deadline);
  return { code, output: run.output() };
}

/** What a merchant fills in first: the upstream (here a sandbox on loopback) and its four keys. */
const merchantKeys = (sandboxUrl: string) => ({
  RAMP_API_URL: `${sandboxUrl}/ramp`,
  RAMP_WIDGET_URL: `${sandboxUrl}/ramp`,
  RAMP_PUBLIC_KEY: 'pk_sandbox_env-example-shop',
  RAMP_SECRET_KEY: 'sk_sandbox_env-example-shop',
  PAY_API_URL: `${sandboxUrl}/pay-api`,
  PAY_API_KEY: 'pay_sandbox_env-example-shop',
  PAY_WEBHOOK_SECRET: 'whsec_sandbox_env-example-shop',
});

/** The rest of a merchant's own values: each secret made as the example's comments say. */
const adminToken = randomBytes(32).toString('hex');
const ownValues = {
  CHECKOUT_TOKEN_SECRET: randomBytes(32).toString('base64'),
  MERCHANT_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
  METRICS_TOKEN: randomBytes(32).toString('base64'),
};

test('every secret value the documentation shows is in the list live mode refuses (or a <placeholder>)', () => {
  const pages = readdirSync(new URL('../../../docs/', import.meta.url)).filter((name) =>
    name.endsWith('.md'),
  );
  const docs = [
    '../../../README.md',
    '../README.md',
    '../API.md',
    ...pages.map((name) => `../../../docs/${name}`),
  ];
  const assignment = new RegExp(`\\b(${secretNames.join('|')})=([^\\s\`'"),]+)`, 'g');
  const shown = docs.flatMap((doc) =>
    [...readFileSync(new URL(doc, import.meta.url), 'utf8').matchAll(assignment)].map((match) => ({
      doc,
      name: match[1] ?? '',
      value: match[2] ?? '',
    })),
  );
  assert.ok(shown.length >= 10, `${shown.length} values shown`);
  for (const { doc, name, value } of shown) {
    // `ADMIN_CREDENTIALS=name:scope:sha256` describes the format, it holds no hash.
    if (name === 'ADMIN_CREDENTIALS' && !/[0-9a-f]{64}/.test(value)) continue;
    assert.ok(
      documentedSamples.includes(value) || sandboxDemoKeys.has(value) || /^<.*>$/.test(value),
      `${doc}: ${name}=${value} is not in documentedSamples`,
    );
  }
});

describe('.env.example copied verbatim to .env', () => {
  let dir = '';
  let sandbox: ServerType;
  let sandboxUrl = '';
  /** The copy with the upstream and its keys filled in, nothing else changed. */
  let copy = '';
  /** The copy with every value a merchant must give filled in but the admin credential. */
  let beforeAdmin = '';
  /** The copy with every value a merchant must give filled in. */
  let complete = '';

  before(async () => {
    ensurePackagesBuilt();
    dir = mkdtempSync(path.join(tmpdir(), 'cc-env-example-'));
    const port = await freePort();
    sandboxUrl = `http://127.0.0.1:${port}`;
    sandbox = serve({ fetch: createSandbox({ baseUrl: sandboxUrl }).app.fetch, port, hostname: '127.0.0.1' });
    copy = filled(example, merchantKeys(sandboxUrl));
    beforeAdmin = uncommented(filled(copy, ownValues), 'PRODUCTS_FILE', fixtureProductsFile);
    complete = uncommented(beforeAdmin, 'ADMIN_CREDENTIALS', `ops:write:${tokenSha256(adminToken)}`);
  });
  after(() => {
    sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A directory of its own holding `text` as `.env`. */
  const project = (text: string) => {
    const cwd = mkdtempSync(path.join(dir, 'shop-'));
    writeFileSync(path.join(cwd, '.env'), text);
    return cwd;
  };

  test('every secret it shows is a listed sample or a <placeholder>: the list in code is complete', () => {
    const shown = settings(example).filter((setting) => secretNames.includes(setting.name));
    assert.ok(shown.length >= secretNames.length, 'each secret variable has a line');
    for (const { name, value } of shown) {
      assert.ok(
        documentedSamples.includes(value) || /<.*>/.test(value),
        `${name}=${value} is neither in documentedSamples nor a placeholder`,
      );
    }
    // What it shipped live before: every rotation and credential line now comes commented out.
    const live = settings(example)
      .filter((setting) => !setting.commented)
      .map((setting) => setting.name);
    for (const name of ['ADMIN_TOKEN', 'ADMIN_CREDENTIALS', 'PRODUCTS_FILE', 'DATABASE_URL', 'REDIS_URL'])
      assert.ok(!live.includes(name), `${name} is commented out`);
    assert.deepEqual(
      live.filter((name) => name.includes('_PREVIOUS')),
      [],
    );
  });

  test('check and the server refuse every sample value left in it, each by its .env line, with the fix', async () => {
    const cwd = project(copy);
    const env = path.join(cwd, '.env');
    const left = settings(copy).filter((setting) => !setting.commented && secretNames.includes(setting.name));
    const samples = left.filter((setting) => documentedSamples.includes(setting.value));
    assert.deepEqual(
      samples.map((setting) => setting.name).sort(),
      ['CHECKOUT_TOKEN_SECRET', 'MERCHANT_WEBHOOK_SECRET', 'METRICS_TOKEN'],
      'the secrets a merchant has not filled in yet',
    );

    const check = await runCli(cwd, {}, ['check']);
    assert.equal(check.code, 1, check.output);
    const serve = await runCli(cwd, { PORT: String(await freePort()) });
    assert.equal(serve.code, 1, serve.output);
    assert.doesNotMatch(serve.output, /listening/);
    for (const { name, line } of samples) {
      const refusal = new RegExp(`${name} \\(${env} line ${line}\\) is a sample value`);
      assert.match(check.output, refusal);
      assert.match(serve.output, refusal);
    }
    assert.match(check.output, /fix: make one with `openssl rand -base64 32`/);
    // What a merchant must choose rather than inherit: a catalog, and an admin credential.
    assert.match(check.output, /PRODUCTS_FILE is not set.*\n.*fix: set PRODUCTS_FILE to your catalog/);
    assert.match(check.output, /ADMIN_CREDENTIALS is missing/);
  });

  test('each rotation or credential line it ships commented out is refused once uncommented, naming it', async () => {
    const commented = settings(example).filter(
      (setting) =>
        setting.commented && (setting.name.endsWith('_PREVIOUS') || setting.name.startsWith('ADMIN_')),
    );
    assert.deepEqual(commented.map((setting) => setting.name).sort(), [
      'ADMIN_CREDENTIALS',
      'ADMIN_TOKEN',
      'CHECKOUT_TOKEN_SECRET_PREVIOUS',
      'MERCHANT_WEBHOOK_SECRET_PREVIOUS',
      'PAY_WEBHOOK_SECRET_PREVIOUS',
      'RAMP_SECRET_KEY_PREVIOUS',
    ]);
    for (const { name, line } of commented) {
      const cwd = project(uncommented(name === 'ADMIN_CREDENTIALS' ? beforeAdmin : complete, name));
      const check = await runCli(cwd, {}, ['check']);
      assert.equal(check.code, 1, `${name} uncommented: ${check.output}`);
      const failures = check.output.split('\n').filter((text) => text.includes('FAIL'));
      assert.ok(failures.length > 0);
      for (const failure of failures)
        assert.match(failure, new RegExp(`${name} \\(${path.join(cwd, '.env')} line ${line}\\)`), failure);
    }
  });

  test('with the merchant’s own values it starts; the values earlier examples shipped open nothing', async () => {
    // The lines earlier examples shipped live, pasted back by an operator: each is refused by name.
    const earlier = {
      PAY_WEBHOOK_SECRET_PREVIOUS: 'old-webhook-secret',
      RAMP_SECRET_KEY_PREVIOUS: 'sk_live_old',
      CHECKOUT_TOKEN_SECRET_PREVIOUS: 'the-old-checkout-token-secret',
      MERCHANT_WEBHOOK_SECRET_PREVIOUS: 'whsec_OldSecretOldSecretOldSecret00',
      ADMIN_CREDENTIALS: `support:read:${tokenSha256('foo')},ops:write:${tokenSha256('bar')}`,
      ADMIN_TOKEN: 'change-me-to-another-long-random-string',
      DATABASE_URL: 'postgres://checkout:secret@db.internal:5432/checkout',
    };
    const completeEnv = parseEnv(complete) as Record<string, string>;
    for (const [name, value] of Object.entries(earlier)) {
      assert.match(problemsOf({ ...completeEnv, [name]: value }), new RegExp(`^${name}\\b`, 'm'), value);
    }
    const pasted = await runCli(project(complete), earlier, ['check']);
    assert.equal(pasted.code, 1, pasted.output);

    const cwd = project(complete);
    const [port, metricsPort] = [await freePort(), await freePort()];
    const env = { PORT: String(port), METRICS_PORT: String(metricsPort) };
    const check = await runCli(cwd, env, ['check']);
    assert.equal(check.code, 0, check.output);
    assert.match(check.output, /ok {4}catalog +2 product\(s\) from /);

    const run = startCli(cwd, env);
    try {
      await waitFor(async () => {
        if (run.child.exitCode !== null) throw new Error(`exited: ${run.output()}`);
        if (!run.output().includes(`listening on port ${port}`)) throw new Error('not listening yet');
      }, 'the backend from the completed copy');
      const base = `http://127.0.0.1:${port}`;
      assert.equal((await (await fetch(`${base}/healthz`)).json()).upstream, 'live');
      const admin = (token: string) =>
        fetch(`${base}/api/admin/orders`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal((await admin(adminToken)).status, 200);
      for (const sample of ['foo', 'bar', 'change-me-to-another-long-random-string'])
        assert.equal((await admin(sample)).status, 401, `Bearer ${sample}`);
      // A payments webhook signed with the sample previous secret of earlier examples is refused.
      const body = JSON.stringify({ eventId: 'evt_sample', orderId: 'ord_x', status: 'completed' });
      const signed = await fetch(`${base}/api/webhooks/payments`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-swapped-signature': createHmac('sha256', 'old-webhook-secret').update(body).digest('base64'),
        },
        body,
      });
      assert.equal(signed.status, 401);
      const products = (await (await fetch(`${base}/api/products`)).json()) as { products: unknown[] };
      assert.equal(products.products.length, 2, "the merchant's catalog, not the sample one");
    } finally {
      if (run.child.exitCode === null) run.child.kill('SIGTERM');
      await run.exited;
    }
  });
});
