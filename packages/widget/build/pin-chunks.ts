// The script-tag bundle pinned (vite.config.ts, `bundle` mode): every file verified before it runs, and its
// manifest, dist/manifest.json.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin, Rolldown } from 'vite';
import { verifiedImportKey } from './verified-import.ts';

/** A file's Subresource Integrity value, as a `integrity` attribute takes it. */
export const sri = (bytes: string | Uint8Array): string =>
  `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

export interface PinChunksOptions {
  /** The name of the element's chunk, which exports the verifying import to the chunks it loads. */
  elementChunk: string;
  /** The package's name and version, for the manifest. */
  name: string;
  version: string;
}

/** The manifest's file name in dist/ (package.json exports it; the backend serves it beside the files). */
export const manifestFile = 'manifest.json';

/**
 * A Merkle chain from the page's `integrity` down: once the files are written, each `import()` of a chunk, in
 * the loader and in every chunk, becomes a verifying import (build/verified-import.ts) that carries the SRI hash
 * of that chunk and of each file it imports statically that is not running yet, leaves first. Hashes are computed
 * bottom-up (a chunk's bytes hold its children's hashes), so the loader, pinned by the page's `integrity`, pins
 * everything it can load. Rolldown's names still change with content (a name holds its imports' names).
 * Then the manifest: every file the element can load with its hash, and the package's version.
 */
export function pinChunks({ elementChunk, name, version }: PinChunksOptions): Plugin {
  return {
    name: 'crypto-checkout-pin-chunks',
    writeBundle(options, bundle) {
      const dir = options.dir;
      if (!dir) throw new Error('the script-tag bundle needs an output dir');
      const chunks = new Map<string, Rolldown.OutputChunk>();
      for (const file of Object.values(bundle)) if (file.type === 'chunk') chunks.set(file.fileName, file);
      const element = [...chunks.values()].find((c) => c.name === elementChunk);
      if (!element) throw new Error('the script-tag bundle has no element chunk');

      /** `file` and what it imports statically, leaves first. */
      const closure = (file: string, out: string[] = []): string[] => {
        if (out.includes(file)) return out;
        for (const dep of chunks.get(file)?.imports ?? []) closure(dep, out);
        out.push(file);
        return out;
      };
      const hashes = new Map<string, string>();
      const busy = new Set<string>();
      const pin = (file: string): string => {
        const known = hashes.get(file);
        if (known) return known;
        if (busy.has(file)) throw new Error(`the chunks load each other in a circle through ${file}`);
        busy.add(file);
        const chunk = chunks.get(file);
        if (!chunk) throw new Error(`no chunk ${file}`);
        const running = new Set(chunk.isEntry ? [] : closure(file));
        const chain = (target: string) =>
          closure(target)
            .filter((f) => !running.has(f))
            .map((f) => `./${f} ${pin(f).slice('sha384-'.length)}`)
            .join(' ');
        let code = readFileSync(join(dir, file), 'utf8');
        if (code.includes('$cc'))
          throw new Error(`${file} already names $cc, the name the pinned imports take`);
        let pinned = 0;
        /** The chain of `target`, counted. */
        const pinnedChain = (target: string) => {
          if (!chunks.has(target)) throw new Error(`${file} loads ${target}, which is not in the bundle`);
          pinned += 1;
          return chain(target);
        };
        if (chunk.isEntry) {
          // The loader's calls, as build/bundle-entry.ts writes them: `h(base,`./x.js`)` (the minifier may inline h).
          code = code.replace(
            /(\(\w+,)`\.\/(crypto-checkout-[\w-]+\.js)`\)/g,
            (_all, head: string, target: string) => `${head}\`${pinnedChain(target)}\`)`,
          );
        } else {
          code = code.replace(
            /\bimport\(`\.\/(crypto-checkout-[\w-]+\.js)`\)/g,
            (_all, target: string) => `$cc(import.meta.url,\`${pinnedChain(target)}\`)`,
          );
          if (/\bimport\(\s*["'`]\./.test(code)) throw new Error(`${file} has an import() left unpinned`);
          const head =
            file === element.fileName
              ? `const $cc=(b,l)=>${verifiedImportKey}(b,l);export{$cc};`
              : pinned
                ? `import{$cc}from"./${element.fileName}";`
                : '';
          // After the compile-hints banner, which must stay the first line.
          code = code.startsWith('//#') ? code.replace(/\n/, `\n${head}`) : `${head}${code}`;
        }
        if (chunk.isEntry && !pinned) throw new Error('the loader loads no chunk it can pin');
        writeFileSync(join(dir, file), code);
        const hash = sri(code);
        hashes.set(file, hash);
        busy.delete(file);
        return hash;
      };
      for (const file of chunks.keys()) pin(file);
      const files = Object.fromEntries([...hashes].sort(([a], [b]) => a.localeCompare(b)));
      const loader = [...chunks.values()].find((c) => c.isEntry)?.fileName;
      writeFileSync(
        join(dir, manifestFile),
        `${JSON.stringify({ name, version, loader, algorithm: 'sha384', files }, null, 2)}\n`,
      );
    },
  };
}
