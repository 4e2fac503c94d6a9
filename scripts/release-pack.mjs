// `npm run release:pack [-- DIR]`: the three public packages as the tarballs npm would publish (the widget
// `crypto-checkout`, `@crypto-checkout/backend`, `@crypto-checkout/sandbox`), in release/ (or DIR), built first when
// their sources changed. It refuses a set that could not be installed together: each internal dependency must be
// a range (not an exact pin) that the version packed beside it satisfies.
//
// A shop packs them into a folder of its own project (`npm run release:pack -- ../my-shop/vendor`) and installs
// them from there (`npm install ./vendor/*.tgz`): npm then records `file:vendor/….tgz`, a path relative to the
// project, so `npm ci` repeats the install in any copy of it (README "Install").
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import semver from 'semver';
import { ensureDeps, ensurePackagesBuilt, ensureWidgetBuilt, root } from './ensure.mjs';

export const publicPackages = ['packages/widget', 'packages/sandbox', 'packages/backend'];
/** The file names `npm pack` gives the three, at any version. */
const ownTarball = /^crypto-checkout(-backend|-sandbox)?-\d+\.\d+\.\d+.*\.tgz$/;

/** Packs the public packages into `out` (emptied of older tarballs first); returns each tarball's path by name. */
export function releasePack(out = join(root, 'release')) {
  ensureDeps();
  ensurePackagesBuilt();
  ensureWidgetBuilt();
  mkdirSync(out, { recursive: true });
  // An older version's tarball left beside the new ones would be installed with them by `*.tgz`. Only ours go:
  // the folder may be a shop's vendor/, holding files of its own.
  for (const file of readdirSync(out)) if (ownTarball.test(file)) rmSync(join(out, file));
  // The builds are fresh (above): the packages' own prepack (a build, for `npm publish`) is not run again.
  const packed = spawnSync(
    'npm',
    [
      'pack',
      '--json',
      '--ignore-scripts',
      '--pack-destination',
      out,
      ...publicPackages.flatMap((dir) => ['-w', dir]),
    ],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (packed.status !== 0) throw new Error(`npm pack exited with ${packed.status ?? packed.signal}`);
  const manifests = JSON.parse(packed.stdout);
  const versions = new Map(manifests.map((m) => [m.name, m.version]));
  const problems = [];
  for (const manifest of manifests) {
    const pkg = JSON.parse(
      spawnSync('tar', ['-xzOf', join(out, manifest.filename), 'package/package.json'], { encoding: 'utf8' })
        .stdout,
    );
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) {
      for (const [name, range] of Object.entries(pkg[field] ?? {})) {
        if (!versions.has(name)) continue;
        if (semver.valid(range))
          problems.push(
            `${pkg.name} pins ${name} at exactly ${range} (${field}): use a range such as ^${range}`,
          );
        else if (!semver.satisfies(versions.get(name), range))
          problems.push(`${pkg.name} wants ${name}@${range} (${field}), but ${versions.get(name)} is packed`);
      }
    }
  }
  if (problems.length)
    throw new Error(`These tarballs would not install together:\n  ${problems.join('\n  ')}`);
  return Object.fromEntries(manifests.map((m) => [m.name, join(out, m.filename)]));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const out = resolve(process.argv[2] ?? join(root, 'release'));
    const tarballs = releasePack(out);
    console.log('');
    for (const [name, path] of Object.entries(tarballs)) {
      const kB = (statSync(path).size / 1024).toFixed(0).padStart(5);
      console.log(`${relative(process.cwd(), path).padEnd(48)} ${kB} kB  ${name}`);
    }
    console.log(
      relative(root, out).startsWith('..')
        ? `\nIn your project: npm install ./${relative(dirname(out), out)}/*.tgz  (from ${dirname(out)}; keep the folder with package.json and the lockfile)`
        : '\nA shop packs them into its own project instead: npm run release:pack -- ../my-shop/vendor',
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
