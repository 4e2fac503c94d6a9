// A plugin of the script-tag bundle (vite.config.ts, `bundle` mode): short names for our `_x` members.
import type { Plugin } from 'vite';

/**
 * Our own members named `_x` (private by the house convention, or shared only between a view and its base class,
 * such as `View._host` and `RampView._fiatText`) get short names in the bundle: the names repeat in every method
 * and weigh (the size test, test/package.test.ts, counts what they cost). Lit's own internals
 * (`_$x`, `_`) do not match; nothing outside the bundle reaches a `_x` member (the tests that steer one import
 * the sources).
 *
 * One table of names for every chunk, made before any is rendered: a view's chunk reads members the element's
 * chunk defines (a view's base class is there too), so `_x` must get the same name everywhere, and a name
 * already used by any module (Lit's minified members) is never given. Made from the sources alone, the table
 * does not depend on the order chunks render in, so a chunk's content (and its hashed name) changes only
 * with its sources.
 */
export function mangleInternals(): Plugin {
  const pattern = /^_[a-z]/;
  let table: Record<string, string | false> = {};
  return {
    name: 'crypto-checkout-mangle-internals',
    async renderStart() {
      const counts = new Map<string, number>();
      const reserved: Record<string, false> = {};
      for (const id of this.getModuleIds()) {
        for (const [word] of this.getModuleInfo(id)?.code?.matchAll(/[A-Za-z_$][\w$]*/g) ?? []) {
          if (pattern.test(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
          else if (word.length <= 3) reserved[word] = false;
        }
      }
      // Each name as often as it occurs, so the most used get the shortest names.
      const uses = [...counts]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([word, n]) => `x.${word};`.repeat(n))
        .join('');
      const { transform } = await import('esbuild');
      table = (await transform(uses, { mangleProps: pattern, mangleCache: reserved })).mangleCache ?? {};
    },
    async renderChunk(code) {
      const { transform } = await import('esbuild');
      const out = await transform(code, {
        mangleProps: pattern,
        mangleCache: { ...table },
        sourcemap: true,
        logLevel: 'warning',
      });
      const added = Object.keys(out.mangleCache ?? {}).filter((name) => !(name in table));
      if (added.length) throw new Error(`mangle-internals: names not in the table: ${added.join(', ')}`);
      return { code: out.code, map: out.map };
    },
  };
}
