// `npm run image [-- DIR]`: the backend as an image for operators, `localhost/crypto-checkout-backend:<version>`,
// built from Debian's packages and the packed tarballs, with no base image pulled and no network in the build:
// mmdebstrap writes a minimal Debian 12 root filesystem (from Debian's mirror), podman imports it as
// localhost/crypto-checkout-base:bookworm, the tarballs of `npm run release:pack` are installed beside it (npm
// registry for their own dependencies), and `podman build --network=none` adds them with deploy/image/Containerfile.
// DIR (default a fresh temporary folder) keeps the build's context. Prints the image's name last.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureImageTools, root } from './ensure.mjs';
import { releasePack } from './release-pack.mjs';

export const imageName = (version) => `localhost/crypto-checkout-backend:${version}`;
const baseName = 'localhost/crypto-checkout-base:bookworm';
/** The image's user: no login, owns only DATA_DIR. */
const user = { name: 'checkout', id: 10001, home: '/var/lib/crypto-checkout' };

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
  return result;
}

const step = (line) => console.log(`[image +${Math.round((Date.now() - began) / 1000)} s] ${line}`);
let began = Date.now();

export function buildImage(dir = mkdtempSync(join(tmpdir(), 'cc-image-'))) {
  began = Date.now();
  const { mmdebstrap, podman } = ensureImageTools();
  const context = resolve(dir);
  const { version } = JSON.parse(readFileSync(join(root, 'packages', 'backend', 'package.json'), 'utf8'));
  mkdirSync(join(context, 'etc'), { recursive: true });
  mkdirSync(join(context, 'data'), { recursive: true });
  mkdirSync(join(context, 'app'), { recursive: true });

  // The previous build's images go first, with their layers: each build would otherwise leave ~340 MB behind.
  // --force: with the build containers of an interrupted build (stopped mid-way, they still hold the base image).
  run(podman, ['rmi', '--ignore', '--force', imageName(version), baseName], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const rootfs = join(context, 'rootfs.tar');
  step('mmdebstrap: a minimal Debian 12 (bookworm) root filesystem');
  run(mmdebstrap, ['--quiet', '--variant=minbase', '--include=ca-certificates', 'bookworm', rootfs]);
  run(podman, ['import', '--quiet', rootfs, baseName], { stdio: ['ignore', 'ignore', 'inherit'] });
  step(`imported as ${baseName}`);

  // The user's lines added to the root filesystem's own passwd and group (COPY, as no RUN can run here).
  for (const [file, line] of [
    ['passwd', `${user.name}:x:${user.id}:${user.id}:crypto-checkout:${user.home}:/usr/sbin/nologin`],
    ['group', `${user.name}:x:${user.id}:`],
  ]) {
    const base = run('tar', ['-xOf', rootfs, `./etc/${file}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    writeFileSync(join(context, 'etc', file), `${base.stdout.toString().trimEnd()}\n${line}\n`);
  }

  const vendor = join(context, 'vendor');
  releasePack(vendor);
  const tarballs = readdirSync(vendor).filter((file) => file.endsWith('.tgz'));
  const app = join(context, 'app');
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify(
      {
        private: true,
        dependencies: Object.fromEntries(
          tarballs.map((file) => [
            file.startsWith('crypto-checkout-backend')
              ? '@crypto-checkout/backend'
              : file.startsWith('crypto-checkout-sandbox')
                ? '@crypto-checkout/sandbox'
                : 'crypto-checkout',
            `file:../vendor/${file}`,
          ]),
        ),
      },
      null,
      2,
    )}\n`,
  );
  run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: app });
  step(`installed ${tarballs.join(', ')}`);
  copyFileSync(process.execPath, join(context, 'node'));

  const name = imageName(version);
  run(
    podman,
    [
      'build',
      '--quiet',
      '--network=none',
      // Docker's format keeps HEALTHCHECK (the OCI format has no field for it).
      '--format=docker',
      '--build-arg',
      `VERSION=${version}`,
      '-t',
      name,
      '-f',
      join(root, 'deploy', 'image', 'Containerfile'),
      context,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  step(`built ${name}`);
  return { name, version, context };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { name } = buildImage(process.argv[2]);
  console.log(name);
}
