import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, envVariables, loadConfig } from '../src/config.ts';

const live = {
  RAMP_API_URL: 'https://ramp.example',
  RAMP_WIDGET_URL: 'https://ramp.example',
  RAMP_PUBLIC_KEY: 'pk_live_x',
  RAMP_SECRET_KEY: 'sk_live_x',
  PAY_API_URL: 'https://pay.example',
  PAY_API_KEY: 'pay_x',
  PAY_WEBHOOK_SECRET: 'whsec_x',
  PUBLIC_URL: 'https://checkout.example',
  ALLOWED_ORIGINS: 'https://shop.example',
  CHECKOUT_TOKEN_SECRET: 'a-checkout-secret-long-enough',
  ADMIN_TOKEN: 'an-admin-token-long-enough',
};

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems.join('\n');
  }
  assert.fail('loadConfig accepted the environment');
};

describe('config', () => {
  test('with no upstream variable it runs on the sandbox mounted under PUBLIC_URL', () => {
    const config = loadConfig({ PORT: '9000' });
    assert.equal(config.mode, 'sandbox');
    assert.equal(config.ramp.apiUrl, 'http://localhost:9000/sandbox/ramp');
    assert.match(config.ramp.publicKey, /^pk_sandbox_/);
    assert.equal(config.upstreamBudget, 90);
    assert.equal(config.upstreamTimeoutMs, 10_000);
  });

  test('with all upstream variables it runs live', () => {
    assert.equal(loadConfig(live).mode, 'live');
  });

  test('on the sandbox its own origin is allowed under every local name; live trusts ALLOWED_ORIGINS only', () => {
    assert.deepEqual(loadConfig({ PORT: '9000' }).allowedOrigins, [
      'http://localhost:9000',
      'http://127.0.0.1:9000',
      'http://[::1]:9000',
    ]);
    assert.deepEqual(loadConfig(live).allowedOrigins, ['https://shop.example']);
  });

  test('with some but not all upstream variables it refuses, naming each missing one', () => {
    const problems = problemsOf({ RAMP_API_URL: 'https://ramp.example', PAY_API_KEY: 'pay_x' });
    for (const name of [
      'RAMP_WIDGET_URL',
      'RAMP_PUBLIC_KEY',
      'RAMP_SECRET_KEY',
      'PAY_API_URL',
      'PAY_WEBHOOK_SECRET',
    ]) {
      assert.match(problems, new RegExp(name));
    }
    assert.doesNotMatch(problems, /RAMP_API_URL is missing/);
  });

  test('a bad MARKUP is named', () => {
    assert.match(problemsOf({ ...live, MARKUP: '7' }), /MARKUP.*between 0 and 5/);
    assert.match(problemsOf({ ...live, MARKUP: 'lots' }), /MARKUP/);
  });

  test('a bad budget or timeout is named', () => {
    assert.match(problemsOf({ UPSTREAM_BUDGET: '0' }), /UPSTREAM_BUDGET/);
    assert.match(problemsOf({ UPSTREAM_TIMEOUT_MS: 'soon' }), /UPSTREAM_TIMEOUT_MS/);
  });

  test('bad and missing variables are named together, in one refusal', () => {
    const problems = problemsOf({ RAMP_API_URL: 'not a url', PAY_API_KEY: 'pay_x', PORT: 'eighty' });
    assert.match(problems, /RAMP_API_URL: /);
    assert.match(problems, /PORT: /);
    for (const name of [
      'RAMP_WIDGET_URL',
      'PAY_API_URL',
      'PAY_WEBHOOK_SECRET',
      'PUBLIC_URL',
      'ADMIN_CREDENTIALS',
    ]) {
      assert.match(problems, new RegExp(`${name} is missing`));
    }
  });

  test('a missing or broken PRODUCTS_FILE is refused at start, not at the first order', async () => {
    assert.match(problemsOf({ PRODUCTS_FILE: '/nonexistent/products.json' }), /PRODUCTS_FILE/);
    const dir = await mkdtemp(path.join(tmpdir(), 'cc-config-'));
    const broken = path.join(dir, 'products.json');
    await writeFile(broken, '[{"id": "a b", "name": "x", "price": "1", "currency": "EUR"}]');
    assert.match(problemsOf({ PRODUCTS_FILE: broken }), /PRODUCTS_FILE .*products\.json: 0\.id/);
    await writeFile(broken, '[{"id": "mug", "name": "Mug", "price": "9.90", "currency": "EUR"}]');
    assert.equal(loadConfig({ PRODUCTS_FILE: broken }).productsFile, broken);
  });

  test('.env.example documents every variable the backend reads', async () => {
    const example = await readFile(new URL('../.env.example', import.meta.url), 'utf8');
    const listed = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]));
    assert.ok(envVariables.length >= 14);
    assert.deepEqual(
      envVariables.filter((name) => !listed.has(name)),
      [],
    );
    assert.deepEqual(
      [...listed].filter((name) => !(envVariables as readonly string[]).includes(name as string)),
      [],
      '.env.example lists nothing the backend ignores',
    );
  });
});
