// `npm test`: installs what is missing, then runs every suite (typecheck, lint, unit, browser, end-to-end)
// and ends with a line of its own, `N passed, N failed`. Exits non-zero on any failure.
//
// Suites can be picked: `npm test -- unit browser` runs only those.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  ensureChromium,
  ensureDatabaseServers,
  ensureDemoBuilt,
  ensureDeployTools,
  ensureDeps,
  ensurePackagesBuilt,
  ensurePrometheus,
  ensureWidgetBuilt,
  root,
} from './ensure.mjs';

const results = join(root, 'test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

const bin = (name) => join(root, 'node_modules', '.bin', name);

function findTests(dir, pattern) {
  if (!existsSync(dir)) return [];
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findTests(path, pattern));
    else if (pattern.test(entry.name)) found.push(path);
  }
  return found.sort();
}

function run(cmd, args, env = {}) {
  console.log(`\n$ ${[relative(root, cmd) || cmd, ...args.map((a) => relative(root, a) || a)].join(' ')}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

/** Runs node's test runner over files, counting tests from a TAP copy of the report. */
function nodeTests(name, files, env = {}) {
  if (files.length === 0) return { passed: 0, failed: 1, note: `no ${name} test files found` };
  const tap = join(results, `${name}.tap`);
  const ok = run(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    env,
  );
  const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
  const count = (label) => Number(text.match(new RegExp(`^# ${label} (\\d+)$`, 'm'))?.[1] ?? 0);
  const passed = count('pass');
  const failed = count('fail') + count('cancelled');
  return { passed, failed: failed || (ok ? 0 : 1) };
}

const suites = {
  // The committed lockfile must be one `npm ci` accepts (in sync, every platform's optional binaries): a dry run
  // needs no network and touches nothing.
  lockfile: () =>
    run('npm', ['ci', '--dry-run', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'])
      ? { passed: 1, failed: 0 }
      : { passed: 0, failed: 1 },
  typecheck: () =>
    run(bin('tsc'), ['-p', 'tsconfig.json']) ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 },
  lint: () => (run(bin('biome'), ['ci', '.']) ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 }),
  unit: () =>
    nodeTests(
      'unit',
      findTests(join(root, 'packages'), /\.test\.ts$/).filter((f) => !f.includes('/browser/')),
    ),
  browser: (chrome) => {
    const summary = join(results, 'browser.json');
    const config = join(root, 'packages', 'widget', 'web-test-runner.config.mjs');
    const ok = run(bin('web-test-runner'), ['--config', config], {
      CHROME_PATH: chrome,
      WTR_SUMMARY: summary,
    });
    if (!existsSync(summary)) return { passed: 0, failed: 1 };
    const { passed, failed } = JSON.parse(readFileSync(summary, 'utf8'));
    return { passed, failed: failed || (ok ? 0 : 1) };
  },
  e2e: (chrome) => nodeTests('e2e', findTests(join(root, 'test'), /\.test\.ts$/), { CHROME_PATH: chrome }),
};

const picked = process.argv.slice(2).filter((name) => name in suites);
const order = picked.length ? picked : Object.keys(suites);

let passed = 0;
let failed = 0;
const lines = [];
try {
  ensureDeps();
  const chrome = order.some((s) => s === 'browser' || s === 'e2e') ? ensureChromium() : undefined;
  if (order.includes('unit')) {
    ensureDatabaseServers();
    ensurePrometheus();
  }
  // HAProxy: deploy/'s tests (e2e) and the rolling restarts behind it (unit).
  if (order.includes('unit') || order.includes('e2e')) ensureDeployTools();
  ensurePackagesBuilt();
  ensureWidgetBuilt();
  if (order.includes('e2e')) ensureDemoBuilt();
  for (const name of order) {
    const outcome = suites[name](chrome);
    passed += outcome.passed;
    failed += outcome.failed;
    lines.push(
      `${name}: ${outcome.passed} passed, ${outcome.failed} failed${outcome.note ? ` (${outcome.note})` : ''}`,
    );
  }
} catch (error) {
  console.error(`\n${error instanceof Error ? error.message : error}`);
  failed += 1;
}

console.log(`\n${lines.join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
