// Makes a fresh clone runnable: installs npm packages, finds (or installs) Chromium, builds the widget and
// the demo.
// Plain Node with no dependencies, because it runs before anything is installed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
  }
}

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function newestIn(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : mtime(path));
  }
  return newest;
}

/**
 * `npm ci` when node_modules is missing or older than the lockfile: installs exactly what the lockfile says and
 * never rewrites it, so a fresh clone stays clean. The lockfile carries every platform's optional binaries
 * (Biome, Rolldown, esbuild), as `npm install` writes it from an empty node_modules; `npm test`'s lockfile
 * check keeps it so.
 */
export function ensureDeps() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(marker) && mtime(marker) >= mtime(lock)) return;
  console.log('Installing npm packages (npm ci)…');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * Installs Debian packages (as root). Waits for another apt/dpkg run to let go of its lock rather than failing at
 * once: on a shared machine a second suite or a provisioning step may be installing at the same moment.
 */
function aptInstall(why, packages) {
  console.log(`Installing Debian's ${packages.join(', ')} for ${why}…`);
  const lock = ['-o', 'DPkg::Lock::Timeout=600'];
  run('apt-get', [...lock, 'update', '-qq']);
  run('apt-get', [...lock, 'install', '-y', '-qq', '--no-install-recommends', ...packages], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

const chromiumCandidates = ['/usr/bin/chromium', '/usr/lib/chromium/chromium', '/usr/bin/chromium-browser'];

/** The Chromium binary for browser tests; installs Debian's package when absent and we are root. */
export function ensureChromium() {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  const found = chromiumCandidates.find((path) => existsSync(path));
  if (found) return found;
  if (isRoot()) {
    aptInstall('the browser tests', ['chromium', 'fonts-liberation']);
    const installed = chromiumCandidates.find((path) => existsSync(path));
    if (installed) return installed;
  }
  throw new Error(
    "Chromium is needed for the browser and end-to-end tests. Install Debian's package 'chromium' " +
      '(sudo apt-get install chromium fonts-liberation) or set CHROME_PATH to a Chromium binary.',
  );
}

/**
 * Firefox and WebKit for the browser and end-to-end tests, from Debian: `firefox-esr` (driven over WebDriver
 * BiDi, no driver binary), `webkit2gtk-driver` (WebKitWebDriver and its MiniBrowser), `xvfb` (MiniBrowser
 * has no headless mode), `xsettingsd` (GTK's settings on that display: colour scheme, reduced motion) and
 * `fonts-liberation` (the metric-compatible fonts every engine lays the pages out with). Installed when missing
 * and we are root, otherwise a message naming the packages. Never a skip: a suite that cannot start an engine
 * fails.
 */
export function ensureEngines() {
  const needed = {
    'firefox-esr': process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr',
    'webkit2gtk-driver': process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver',
    xvfb: '/usr/bin/Xvfb',
    xsettingsd: process.env.XSETTINGSD_PATH ?? '/usr/bin/xsettingsd',
    'fonts-liberation': '/usr/share/fonts/truetype/liberation',
  };
  const missing = () => Object.keys(needed).filter((name) => !existsSync(needed[name]));
  if (missing().length === 0) return;
  if (isRoot()) {
    aptInstall('the browser tests', missing());
    if (missing().length === 0) return;
  }
  throw new Error(
    `Firefox and WebKit are needed for the browser and end-to-end tests. Install Debian's packages ` +
      `(sudo apt-get install ${missing().join(' ')}), or run the tests as root to have them installed.`,
  );
}

/** Where Debian's PostgreSQL 15 keeps its server binaries (not on PATH). */
export const postgresBin = '/usr/lib/postgresql/15/bin';

/**
 * Debian's PostgreSQL and Redis servers for the tests that run several instances on them (the store contract
 * suite, the three-instance tests, the bench): installed when missing and we are root, otherwise a message
 * saying what to install. Never a skip: a suite that cannot start them fails.
 */
export function ensureDatabaseServers() {
  const have = () => existsSync(join(postgresBin, 'postgres')) && existsSync('/usr/bin/redis-server');
  if (have()) return { postgresBin, redisServer: '/usr/bin/redis-server' };
  if (isRoot()) {
    aptInstall('the storage tests', ['postgresql-15', 'redis-server']);
    if (have()) return { postgresBin, redisServer: '/usr/bin/redis-server' };
  }
  throw new Error(
    "PostgreSQL 15 and Redis are needed for the storage tests. Install Debian's packages " +
      '(sudo apt-get install postgresql-15 redis-server), or run the tests as root to have them installed.',
  );
}

/**
 * Debian's Prometheus (with promtool) for the tests that scrape the instances and check the shipped alert rules:
 * installed when missing and we are root, otherwise a message saying what to install. Never a skip.
 */
export function ensurePrometheus() {
  const found = { prometheus: '/usr/bin/prometheus', promtool: '/usr/bin/promtool' };
  const have = () => existsSync(found.prometheus) && existsSync(found.promtool);
  if (have()) return found;
  if (isRoot()) {
    aptInstall('the metrics tests', ['prometheus']);
    if (have()) return found;
  }
  throw new Error(
    "Prometheus is needed for the metrics tests. Install Debian's package (sudo apt-get install prometheus), " +
      'or run the tests as root to have it installed.',
  );
}

/**
 * The tools the files in deploy/ are checked with: Debian's `haproxy` (the load balancer of deploy/haproxy.cfg)
 * and `systemd` (for `systemd-analyze verify` of the unit). Installed when missing and we are root, otherwise a
 * message saying what to install; the tests that need them fail without them, never skip.
 */
export function ensureDeployTools() {
  const tools = { haproxy: '/usr/sbin/haproxy', systemdAnalyze: '/usr/bin/systemd-analyze' };
  const have = () => Object.values(tools).every((path) => existsSync(path));
  if (have()) return tools;
  if (isRoot()) {
    aptInstall('the tests of deploy/', ['haproxy', 'systemd']);
    if (have()) return tools;
  }
  throw new Error(
    "HAProxy and systemd-analyze are needed for the tests of deploy/. Install Debian's packages " +
      '(sudo apt-get install haproxy systemd), or run the tests as root to have them installed.',
  );
}

/**
 * What scripts/image.mjs builds the operators' image with: Debian's `mmdebstrap` (the root filesystem, from
 * Debian's packages: no base image is pulled), `podman` (import, build with no network) and `docker-compose`
 * (checks deploy/image/compose.yaml: Debian 12's podman-compose 1.0 has no `config`). Installed when missing
 * and we are root, otherwise a message saying so.
 */
export function ensureImageTools() {
  const tools = {
    mmdebstrap: '/usr/bin/mmdebstrap',
    podman: '/usr/bin/podman',
    compose: '/usr/bin/docker-compose',
  };
  const have = () => Object.values(tools).every((path) => existsSync(path));
  if (have()) return tools;
  if (isRoot()) {
    aptInstall("the operators' image", ['mmdebstrap', 'podman', 'docker-compose']);
    if (have()) return tools;
  }
  throw new Error(
    "mmdebstrap, podman and docker-compose build and check the image. Install Debian's packages " +
      '(sudo apt-get install mmdebstrap podman docker-compose), or run as root to have them installed.',
  );
}

/** Builds the widget (npm entries and the script-tag bundle) when its sources are newer than dist. */
export function ensureWidgetBuilt({ force = false } = {}) {
  const widget = join(root, 'packages', 'widget');
  const built = mtime(join(widget, 'dist', 'crypto-checkout.js'));
  const sources = Math.max(
    newestIn(join(widget, 'src')),
    newestIn(join(widget, 'scripts')),
    newestIn(join(widget, 'build')),
    mtime(join(widget, 'package.json')),
    mtime(join(widget, 'tsconfig.build.json')),
    mtime(join(widget, 'custom-elements-manifest.config.mjs')),
    mtime(join(widget, 'vite.config.ts')),
  );
  if (!force && built && built >= sources) return;
  console.log('Building the widget…');
  run('npm', ['run', 'build', '--workspace', 'packages/widget']);
}

/**
 * Bun and Deno, for the backend's HTTP contract on each runtime: binaries from the npm packages the lockfile
 * installs (`bun`, `deno` and their platform packages, `@oven/bun-<platform>`, `@deno/<platform>`). The wrappers'
 * install scripts move the binary out of the platform package into their own folder when npm runs them, and
 * leave it where it is when it does not (npm 11 may skip them): both places are looked at. Each is run once
 * (`--version`), so a binary that cannot start on this machine fails here, naming it, rather than in a test.
 */
export function ensureRuntimes() {
  const modules = join(root, 'node_modules');
  const { platform, arch } = process;
  const exe = platform === 'win32' ? '.exe' : '';
  const denoPlatform = { linux: `linux-${arch}-glibc`, darwin: `darwin-${arch}`, win32: `win32-${arch}` }[
    platform
  ];
  const bunPlatform = `${platform === 'win32' ? 'windows' : platform}-${arch === 'arm64' ? 'aarch64' : arch}`;
  const candidates = {
    bun: [
      join(modules, '@oven', `bun-${bunPlatform}`, 'bin', `bun${exe}`),
      join(modules, 'bun', 'bin', 'bun.exe'),
    ],
    deno: [join(modules, '@deno', `${denoPlatform}`, `deno${exe}`), join(modules, 'deno', `deno${exe}`)],
  };
  const found = {};
  for (const [name, paths] of Object.entries(candidates)) {
    const binary = paths.find((path) => spawnSync(path, ['--version'], { stdio: 'ignore' }).status === 0);
    if (!binary) {
      throw new Error(
        `${name} is not installed, or cannot start here (looked for ${paths.join(', ')}): run npm ci, and keep ` +
          'the optional dependencies (not --omit=optional).',
      );
    }
    found[name] = binary;
  }
  return found;
}

/**
 * Builds the sandbox and the backend (tsc → dist, JavaScript and types) when their sources are newer: the demo
 * imports the backend as a merchant would, from its package, and the backend loads the sandbox from its own.
 */
export function ensurePackagesBuilt({ force = false } = {}) {
  for (const name of ['sandbox', 'backend']) {
    const dir = join(root, 'packages', name);
    const built = mtime(join(dir, 'dist', 'index.js'));
    const sources = Math.max(
      newestIn(join(dir, 'src')),
      mtime(join(dir, 'package.json')),
      mtime(join(dir, 'tsconfig.build.json')),
      // The backend's build also builds the merchant console into its dist/console.
      ...(name === 'backend' ? [newestIn(join(root, 'packages', 'console', 'src'))] : []),
    );
    if (!force && built && built >= sources) continue;
    console.log(`Building packages/${name}…`);
    rmSync(join(dir, 'dist'), { recursive: true, force: true });
    run('npm', ['run', 'build', '--workspace', `packages/${name}`]);
  }
}

/** Builds the demo's browser code (page scripts and the npm-import example) when its sources are newer. */
export function ensureDemoBuilt({ force = false } = {}) {
  const demo = join(root, 'demo');
  const built = Math.min(mtime(join(demo, 'dist', 'shop.js')), mtime(join(demo, 'dist', 'npm-example.js')));
  const sources = Math.max(
    newestIn(join(demo, 'client')),
    newestIn(join(demo, 'npm-example')),
    mtime(join(demo, 'build.ts')),
    mtime(join(root, 'packages', 'widget', 'dist', 'define.js')),
  );
  if (!force && built && built >= sources) return;
  console.log('Building the demo…');
  run('npm', ['run', 'build', '--workspace', 'demo']);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureDeps();
  ensurePackagesBuilt();
}
