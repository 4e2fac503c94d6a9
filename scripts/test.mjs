// `npm test`: installs what is missing, then runs every suite (typecheck, lint, unit, browser, end-to-end)
// and ends with a line of its own, `N passed, N failed`. Exits non-zero on any failure.
//
// Suites can be picked: `npm test -- unit browser` runs only those; engines too: `npm test -- e2e webkit` runs the
// end-to-end tests in WebKit only. The browser and end-to-end suites run once per engine (Chromium, Firefox,
// WebKit: scripts/browsers.mjs), each with its own line of counts and its time.
//
// The jobs (a suite, or a suite in one engine) run three at a time (TEST_JOBS), longest first: each starts its
// own servers and browsers on free ports and displays, and most of their time is waiting on them. Each job's
// output is printed whole when it ends, and kept in test-results/<job>.log.
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import {
  ensureChromium,
  ensureDatabaseServers,
  ensureDemoBuilt,
  ensureDeployTools,
  ensureDeps,
  ensureEngines,
  ensureImageTools,
  ensurePackagesBuilt,
  ensurePrometheus,
  ensureRuntimes,
  ensureWidgetBuilt,
  root,
} from './ensure.mjs';

/** The engines, as scripts/browsers.mjs names them (that module needs the npm packages: not imported here). */
const engines = ['chromium', 'firefox', 'webkit'];

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

/** The command line as printed: paths relative to the repository. */
const shown = (cmd, args) =>
  [relative(root, cmd) || cmd, ...args.map((a) => relative(root, a) || a)].join(' ');

/**
 * Runs a command with its output kept (test-results/<name>.log, and printed whole when it ends, so that suites
 * running side by side do not interleave their lines); resolves to whether it exited with 0.
 */
function run(name, cmd, args, env = {}) {
  return new Promise((resolve) => {
    const log = join(results, `${name}.log`);
    const chunks = [`$ ${shown(cmd, args)}\n`];
    writeFileSync(log, chunks[0]);
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, FORCE_COLOR: '0', ...env } });
    const keep = (chunk) => {
      chunks.push(chunk.toString());
      appendFileSync(log, chunk);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', (error) => keep(`${error.message}\n`));
    child.once('close', (code) => {
      process.stdout.write(`\n===== ${name} =====\n${chunks.join('')}`);
      resolve(code === 0);
    });
  });
}

const once = async (name, cmd, args) =>
  (await run(name, cmd, args)) ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };

/** Runs node's test runner over files, counting tests from a TAP copy of the report. */
async function nodeTests(name, files, env = {}) {
  if (files.length === 0) return { passed: 0, failed: 1, note: `no ${name} test files found` };
  const tap = join(results, `${name}.tap`);
  const ok = await run(
    name,
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

/** The backend's tests that run three instances behind HAProxy: the unit suite's second job. */
const fleetTests = /\/(rolling-restart|upstream-outage|behind-haproxy)\.test\.ts$/;

/** The HTTP contract against the CLI on Node, Bun and Deno (SQLite, PostgreSQL): the unit suite's third job. */
const runtimeTests = /\/http-contract\/[^/]+\.test\.ts$/;

/** The operators' image (built with mmdebstrap and podman, started under chroot): a suite of its own. */
const imageTest = join(root, 'test', 'image.test.ts');

/** End-to-end files that open a browser (the others, the fresh clone and the packages, need none). */
const e2eFiles = (browser) =>
  findTests(join(root, 'test'), /\.test\.ts$/).filter(
    (file) =>
      file !== imageTest && /\bdemoSuite\(|\blaunchBrowser\(/.test(readFileSync(file, 'utf8')) === browser,
  );

/**
 * Each suite as its jobs: `[label, run]`, `run(chrome)` resolving to its counts. The browser and end-to-end
 * suites have one job per engine; the end-to-end files that need no browser are a job of their own.
 */
const suites = {
  // The committed lockfile must be one `npm ci` accepts (in sync, every platform's optional binaries): a dry run
  // needs no network and touches nothing.
  lockfile: () => [
    [
      'lockfile',
      () =>
        once('lockfile', 'npm', [
          'ci',
          '--dry-run',
          '--offline',
          '--ignore-scripts',
          '--no-audit',
          '--no-fund',
        ]),
    ],
  ],
  typecheck: () => [['typecheck', () => once('typecheck', bin('tsc'), ['-p', 'tsconfig.json'])]],
  lint: () => [
    ['lint', () => once('lint', bin('biome'), ['ci', '.'])],
    // The backend's floors (.dependency-cruiser.cjs), as `npm run lint` checks them.
    [
      'floors',
      () =>
        once('floors', bin('depcruise'), [
          '--config',
          '.dependency-cruiser.cjs',
          '--output-type',
          'err',
          'packages/backend/src',
        ]),
    ],
  ],
  // Three jobs side by side: the files that run a fleet behind HAProxy (minutes each, mostly waiting on it), the
  // HTTP contract on each runtime, and the rest; Node runs one job's files one at a time.
  unit: () => {
    const files = findTests(join(root, 'packages'), /\.test\.ts$/).filter((f) => !f.includes('/browser/'));
    const fleet = files.filter((f) => fleetTests.test(f));
    const runtimes = files.filter((f) => runtimeTests.test(f));
    return [
      [
        'unit',
        () =>
          nodeTests(
            'unit',
            files.filter((f) => !fleetTests.test(f) && !runtimeTests.test(f)),
          ),
      ],
      ['unit (fleet)', () => nodeTests('unit-fleet', fleet)],
      ['unit (runtimes)', () => nodeTests('unit-runtimes', runtimes)],
    ];
  },
  browser: (picked) =>
    picked.map((engine) => [
      `browser (${engine})`,
      async (chrome) => {
        const summary = join(results, `browser-${engine}.json`);
        const config = join(root, 'packages', 'widget', 'web-test-runner.config.mjs');
        const ok = await run(`browser-${engine}`, bin('web-test-runner'), ['--config', config], {
          CHROME_PATH: chrome,
          WTR_BROWSERS: engine,
          WTR_SUMMARY: summary,
        });
        if (!existsSync(summary)) return { passed: 0, failed: 1 };
        const { passed, failed } = JSON.parse(readFileSync(summary, 'utf8'));
        return { passed, failed: failed || (ok ? 0 : 1) };
      },
    ]),
  // The files that open a browser, in each engine; the others (a fresh clone, the packages) once.
  e2e: (picked, all) => [
    ...picked.map((engine) => [
      `e2e (${engine})`,
      (chrome) => nodeTests(`e2e-${engine}`, e2eFiles(true), { CHROME_PATH: chrome, E2E_BROWSER: engine }),
    ]),
    ...(all ? [['e2e (no browser)', () => nodeTests('e2e-no-browser', e2eFiles(false))]] : []),
  ],
  // Debian's root filesystem (mmdebstrap, from the mirror), the packed tarballs, podman build with no network, and
  // the image's root filesystem serving /readyz; compose.yaml checked.
  image: () => [['image', () => nodeTests('image', [imageTest])]],
};

/**
 * How long each job took in a loaded run here (seconds): the longest start first, so that the jobs running side
 * by side end together.
 */
const expected = {
  unit: 475,
  'unit (fleet)': 450,
  'unit (runtimes)': 150,
  'e2e (webkit)': 360,
  'e2e (no browser)': 340,
  'e2e (firefox)': 250,
  'e2e (chromium)': 220,
  'browser (webkit)': 160,
  'browser (firefox)': 150,
  'browser (chromium)': 100,
  typecheck: 30,
  lint: 10,
  floors: 5,
  lockfile: 5,
  image: 300,
};

const args = process.argv.slice(2);
const picked = args.filter((name) => name in suites);
const order = picked.length ? picked : Object.keys(suites);
const pickedEngines = args.filter((name) => engines.includes(name));
const perEngine = new Set(['browser', 'e2e']);
/** Jobs at a time (TEST_JOBS): three by default; each is mostly waiting on browsers, servers and timers. */
const jobs = Math.max(1, Number(process.env.TEST_JOBS) || 3);

let passed = 0;
let failed = 0;
const lines = [];
const started = Date.now();
try {
  ensureDeps();
  const browsers = order.some((s) => perEngine.has(s));
  const chrome = browsers ? ensureChromium() : undefined;
  if (browsers) ensureEngines();
  if (order.includes('unit')) {
    ensureDatabaseServers();
    ensurePrometheus();
    // Bun and Deno from the lockfile's npm packages: one that cannot start fails here, named.
    ensureRuntimes();
  }
  // HAProxy: deploy/'s tests (e2e) and the rolling restarts behind it (unit).
  if (order.includes('unit') || order.includes('e2e')) ensureDeployTools();
  ensurePackagesBuilt();
  ensureWidgetBuilt();
  if (order.includes('e2e')) ensureDemoBuilt();
  if (order.includes('image')) ensureImageTools();
  const queue = order
    .flatMap((name) => suites[name](pickedEngines.length ? pickedEngines : engines, !pickedEngines.length))
    .sort(([a], [b]) => (expected[b] ?? 0) - (expected[a] ?? 0));
  console.log(`Running ${queue.map(([label]) => label).join(', ')}, ${jobs} at a time…`);
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [label, job] = next;
      const begun = Date.now();
      const outcome = await job(chrome).catch((error) => ({ passed: 0, failed: 1, note: error.message }));
      const seconds = Math.round((Date.now() - begun) / 1000);
      passed += outcome.passed;
      failed += outcome.failed;
      const line =
        `${label}: ${outcome.passed} passed, ${outcome.failed} failed` +
        `${outcome.note ? ` (${outcome.note})` : ''} in ${seconds} s`;
      lines.push(line);
      console.log(`\n----- ${line}`);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
} catch (error) {
  console.error(`\n${error instanceof Error ? error.message : error}`);
  failed += 1;
}

console.log(`\n${lines.join('\n')}\nin ${Math.round((Date.now() - started) / 1000)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
