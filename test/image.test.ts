/**
 * The operators' image (scripts/image.mjs, `npm run image`): built from Debian's packages and the packed tarballs
 * with no base image and no network, then its root filesystem started as the image's own configuration says (its
 * user, its environment, its command), on a read-only root with DATA_DIR a volume, and answering /readyz. No
 * container runtime can run on these machines (crun is refused cgroups), so the root filesystem runs under
 * `chroot` in a mount namespace of its own (`unshare -m`). And compose.yaml (three instances, PostgreSQL, Redis,
 * HAProxy) as docker-compose reads it (podman-compose 1.0, Debian 12's, has no `config`).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort, waitFor } from '../packages/backend/test/servers.ts';
// @ts-expect-error: plain JavaScript (no types).
import { buildImage } from '../scripts/image.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cleanups: Array<() => void> = [];
after(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
});

interface ImageConfig {
  Config: { User: string; Env: string[]; Cmd: string[]; Labels: Record<string, string>; Volumes: object };
  Healthcheck?: { Test: string[] };
}

/**
 * A command in the image's root filesystem as a container would run it: the root read-only, `volume` mounted
 * at the image's DATA_DIR, as the image's user (USERSPEC in the environment of `unshare`).
 */
const inImage = (mount: string, volume: string, dataDir: string, command: string[]) =>
  [
    '-m',
    'sh',
    '-c',
    'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && mount --bind "$1" "$0$2" && ' +
      'shift 2 && exec chroot --userspec="$USERSPEC" "$0" "$@"',
    mount,
    volume,
    dataDir,
    ...command,
  ] as const;

test('the image: built offline from Debian and the tarballs, its root filesystem serves /readyz read-only as its user', async () => {
  const { name, version, context } = buildImage() as { name: string; version: string; context: string };
  cleanups.push(() => rmSync(context, { recursive: true, force: true }));
  const [image] = JSON.parse(execFileSync('podman', ['image', 'inspect', name]).toString()) as ImageConfig[];
  assert.ok(image);
  const { User: user, Env: env, Cmd: cmd, Labels: labels } = image.Config;
  assert.equal(user, '10001:10001', 'an unprivileged user');
  assert.equal(labels['org.opencontainers.image.version'], version);
  assert.equal(labels['org.opencontainers.image.title'], 'crypto-checkout backend');
  assert.match(JSON.stringify(image.Healthcheck?.Test), /\/readyz/, 'a health check on /readyz');
  const dataDir = env.find((line) => line.startsWith('DATA_DIR='))?.slice('DATA_DIR='.length) ?? '';
  assert.ok(dataDir && dataDir in image.Config.Volumes, 'DATA_DIR is a volume');

  const mount = execFileSync('podman', ['image', 'mount', name]).toString().trim();
  cleanups.push(() => spawnSync('podman', ['image', 'unmount', name]));
  const volume = mkdtempSync(path.join(tmpdir(), 'cc-image-data-'));
  cleanups.push(() => rmSync(volume, { recursive: true, force: true }));
  const [uid, gid] = user.split(':').map(Number) as [number, number];
  chownSync(volume, uid, gid);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const runEnv = { USERSPEC: user, PATH: process.env['PATH'] ?? '' };
  const imageEnv = [
    'env',
    '-i',
    'PATH=/usr/local/bin:/usr/bin:/bin',
    ...env,
    `PORT=${port}`,
    `PUBLIC_URL=${base}`,
  ];

  // A write outside DATA_DIR is refused: the root filesystem is read-only.
  const write = spawnSync(
    'unshare',
    inImage(mount, volume, dataDir, [
      ...imageEnv,
      '/usr/local/bin/node',
      '-e',
      "require('node:fs').writeFileSync('/opt/crypto-checkout/x', 'x')",
    ]),
    { env: runEnv, encoding: 'utf8' },
  );
  assert.notEqual(write.status, 0);
  assert.match(write.stderr, /EROFS|read-only/);

  let output = '';
  const child = spawn('unshare', inImage(mount, volume, dataDir, [...imageEnv, ...cmd]), {
    env: runEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(() => child.kill('SIGKILL'));
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${output}`);
      const response = await fetch(`${base}/readyz`);
      assert.equal(response.status, 200);
      const body = (await response.json()) as { storage: { kind: string; database: string } };
      assert.deepEqual(body.storage, { kind: 'sqlite', database: `${dataDir}/crypto-checkout.sqlite` });
    },
    'the image answering /readyz',
    120_000,
  );
  // Its data is in the volume, owned by the image's user.
  const file = path.join(volume, 'crypto-checkout.sqlite');
  assert.ok(existsSync(file));
  assert.equal(statSync(file).uid, uid);
  child.kill('SIGTERM');
  assert.equal(await exited, 0, output);
});

test('compose.yaml: three instances of the image behind HAProxy, PostgreSQL and Redis, as docker-compose reads it', () => {
  // Laid out as in the repository (deploy/haproxy.cfg beside deploy/image/), with the operator's .env beside it.
  const dir = mkdtempSync(path.join(tmpdir(), 'cc-compose-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'image'));
  copyFileSync(path.join(root, 'deploy', 'image', 'compose.yaml'), path.join(dir, 'image', 'compose.yaml'));
  copyFileSync(path.join(root, 'deploy', 'haproxy.cfg'), path.join(dir, 'haproxy.cfg'));
  writeFileSync(path.join(dir, 'image', '.env'), '');
  const check = (env: Record<string, string>) =>
    spawnSync('docker-compose', ['-f', path.join(dir, 'image', 'compose.yaml'), 'config'], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      encoding: 'utf8',
    });
  const missing = check({});
  assert.notEqual(missing.status, 0, 'refused without POSTGRES_PASSWORD');
  assert.match(missing.stderr, /set POSTGRES_PASSWORD in \.env/);
  const read = check({ POSTGRES_PASSWORD: 'compose-check-only' });
  assert.equal(read.status, 0, read.stderr);
  for (const service of ['checkout-1', 'checkout-2', 'checkout-3', 'postgres', 'redis', 'haproxy'])
    assert.match(read.stdout, new RegExp(`^  ${service}:$`, 'm'), service);
  assert.equal(read.stdout.match(/read_only: true/g)?.length, 3, 'each instance on a read-only root');
  assert.match(read.stdout, /CHECKOUT_SERVER_3: checkout-3:8787/);
  assert.match(read.stdout, /DATABASE_URL: postgres:\/\/checkout:compose-check-only@postgres:5432\/checkout/);
});
