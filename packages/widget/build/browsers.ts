/**
 * The browsers the element supports: package.json's `browserslist` (the README's "Browser support"), as the build's
 * target and as the support test (test/browser-support.test.ts) reads it.
 */
import { readFileSync } from 'node:fs';
import browserslist from 'browserslist';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  browserslist: string[];
};

/** The policy as a browserslist query. */
export const supportQuery = pkg.browserslist.join(', ');

/** Browserslist's names → the build's (Vite's `build.target`, esbuild's names): phones run their engine's. */
const engineOf: Record<string, string> = {
  chrome: 'chrome',
  and_chr: 'chrome',
  edge: 'edge',
  firefox: 'firefox',
  and_ff: 'firefox',
  safari: 'safari',
  ios_saf: 'ios',
};

/** The oldest version of each engine the policy names, as Vite's `build.target` takes them (`safari17.5`). */
export function buildTargets(): string[] {
  const oldest = new Map<string, number>();
  for (const entry of browserslist(supportQuery)) {
    const [name = '', range = ''] = entry.split(' ');
    const engine = engineOf[name];
    // `18.5-18.7`: a range of versions the data does not tell apart; its first is the oldest.
    const version = Number.parseFloat(range.split('-')[0] ?? '');
    if (!engine || !Number.isFinite(version)) continue;
    if (version < (oldest.get(engine) ?? Number.POSITIVE_INFINITY)) oldest.set(engine, version);
  }
  return [...oldest].map(([engine, version]) => `${engine}${version}`).sort();
}
