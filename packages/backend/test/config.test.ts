import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  type Config,
  ConfigError,
  checkConfig,
  envVariables,
  loadConfig,
  startWarnings,
} from '../src/config.ts';
import { createCheckout } from '../src/process/checkout.ts';
import { liveEnv, problemsOf } from './config-env.ts';

const live = liveEnv;

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
    const missing = envVariables.filter((name) => !listed.has(name));
    assert.deepEqual(missing, [], `.env.example has no line for ${missing.join(', ')}`);
    const extra = [...listed].filter((name) => !(envVariables as readonly string[]).includes(name as string));
    assert.deepEqual(extra, [], `.env.example lists ${extra.join(', ')}, which config.ts does not read`);
  });

  test("docs/configuration.md's table lists every variable the backend reads, and none it does not", async () => {
    const page = await readFile(new URL('../../../docs/configuration.md', import.meta.url), 'utf8');
    const section = page.split('\n## ')[0] ?? '';
    const listed = new Set<string>();
    for (const row of section.split('\n').filter((line) => line.startsWith('| `'))) {
      const cell = row.split('|')[1] ?? '';
      for (const [, name] of cell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) {
        listed.add(name as string);
        // `CHECKOUT_TOKEN_SECRET_PREVIOUS`, … (each with `…_UNTIL`): the row names both.
        if (cell.includes('each with `…_UNTIL`')) listed.add(`${name}_UNTIL`);
      }
    }
    assert.ok(listed.size >= 14, `the table was found (${listed.size} names)`);
    const missing = envVariables.filter((name) => !listed.has(name));
    assert.deepEqual(missing, [], `docs/configuration.md's table has no row for ${missing.join(', ')}`);
    const extra = [...listed].filter((name) => !(envVariables as readonly string[]).includes(name));
    assert.deepEqual(
      extra,
      [],
      `docs/configuration.md's table lists ${extra.join(', ')}, which config.ts does not read`,
    );
  });
});

test('the CHANGELOG (or a pending changeset) names each migration', async () => {
  const { migrationProvider } = await import('../src/store/schema.ts');
  const { readdir } = await import('node:fs/promises');
  const changesets = new URL('../../../.changeset/', import.meta.url);
  const notes = [
    await readFile(new URL('../CHANGELOG.md', import.meta.url), 'utf8'),
    ...(await Promise.all(
      (
        await readdir(changesets)
      )
        .filter((file) => file.endsWith('.md'))
        .map((file) => readFile(new URL(file, changesets), 'utf8')),
    )),
  ].join('\n');
  const unnamed = Object.keys(await migrationProvider.getMigrations()).filter(
    (name) => !notes.includes(`\`${name}\``),
  );
  assert.deepEqual(unnamed, [], `no CHANGELOG entry or changeset names migration ${unnamed.join(', ')}`);
});

/** The problems a config object given in code is refused with. */
const codeProblemsOf = (config: unknown) => {
  try {
    checkConfig(config as Config);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems;
  }
  assert.fail('checkConfig accepted the config');
};

describe('a config given in code (createCheckout)', () => {
  test('every config loadConfig makes passes as it is', () => {
    for (const env of [
      {},
      { PORT: '9000', MARKUP: '2.5', DEFAULT_COUNTRY: 'fr' },
      live,
      {
        ...live,
        MERCHANT_WEBHOOK_URL: 'https://shop.example/hooks',
        MERCHANT_WEBHOOK_SECRET: `whsec_${'A'.repeat(32)}`,
        DATABASE_URL: 'postgres://u:p@db:5432/x',
        REDIS_URL: 'redis://cache:6379',
        REDIS_FALLBACK_INSTANCES: '3',
      },
    ]) {
      const config = loadConfig(env);
      assert.equal(checkConfig(config), config);
    }
  });

  test("the README's `{ ...loadConfig(), events: { onEvent } }` is refused at once, naming the field, opening nothing", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cc-config-'));
    const dataDir = path.join(dir, 'data');
    const config = { ...loadConfig({ DATA_DIR: dataDir }), events: { onEvent: () => undefined } };
    await assert.rejects(
      createCheckout(config as unknown as Config),
      (error: unknown) =>
        error instanceof ConfigError &&
        /^Invalid configuration:\n {2}- events\.webhookUrls: /.test(error.message),
    );
    assert.equal(existsSync(dataDir), false, 'no database was opened');
  });

  test('a value the environment would refuse is refused in code with the same message', () => {
    const cases: Array<[Record<string, string>, (config: Config) => unknown, string]> = [
      [{ MARKUP: '9' }, (config) => ({ ...config, markup: 9 }), 'markup'],
      [{ ...live, ADMIN_TOKEN: 'short' }, (config) => ({ ...config, adminToken: 'short' }), 'adminToken'],
      [
        { DATABASE_URL: 'mysql://db/x' },
        (config) => ({ ...config, databaseUrl: 'mysql://db/x' }),
        'databaseUrl',
      ],
      [
        { ALLOWED_ORIGINS: 'shop.example' },
        (config) => ({ ...config, allowedOrigins: ['shop.example'] }),
        'allowedOrigins.0',
      ],
      [
        { MERCHANT_WEBHOOK_URL: 'https://shop.example/hooks' },
        (config) => ({
          ...config,
          events: { webhookUrls: ['https://shop.example/hooks'], webhookSecret: undefined },
        }),
        'events.webhookSecret',
      ],
      [
        { PRODUCTS_FILE: '/nonexistent/products.json' },
        (config) => ({ ...config, productsFile: '/nonexistent/products.json' }),
        'productsFile',
      ],
    ];
    const valid = loadConfig(live);
    for (const [env, change, field] of cases) {
      const fromEnv = problemsOf({ ...live, ...env }).split('\n');
      const fromCode = codeProblemsOf(change(valid));
      assert.equal(fromCode.length, 1, fromCode.join('\n'));
      const [where, message] = [
        fromCode[0]?.slice(0, field.length + 2),
        fromCode[0]?.slice(field.length + 2),
      ];
      assert.equal(where, `${field}: `);
      assert.ok(
        fromEnv.some((line) => line.endsWith(message ?? '?')),
        `the environment says the same: ${fromEnv.join(' | ')} ∌ ${message}`,
      );
    }
  });
});

describe('warnings at start', () => {
  test('live keys with an http: PUBLIC_URL', () => {
    assert.match(
      startWarnings(loadConfig({ ...live, PUBLIC_URL: 'http://checkout.example' }), 8787).join('\n'),
      /is http: with live keys/,
    );
    assert.deepEqual(startWarnings(loadConfig(live), 8787), []);
    assert.deepEqual(
      startWarnings(loadConfig({ PORT: '8787' }), 8787),
      [],
      'the sandbox on http://localhost is fine',
    );
  });

  test('a PUBLIC_URL on this machine that is not where the command listens', () => {
    const at = (publicUrl: string, port: number) =>
      startWarnings(loadConfig({ PUBLIC_URL: publicUrl }), port).join('\n');
    assert.match(at('http://localhost:3000', 8787), /at port 3000, but the backend listens on 8787/);
    assert.match(at('http://127.0.0.1', 8787), /at port 80, but the backend listens on 8787/);
    assert.match(at('http://[::1]:8787/checkout', 8787), /has a path/);
    assert.equal(at('http://127.0.0.1:8787', 8787), '');
    assert.equal(at('https://checkout.example:8443', 8787), '', 'another host may be a proxy in front of it');
  });
});
