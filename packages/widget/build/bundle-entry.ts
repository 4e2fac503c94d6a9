// The script-tag bundle's entry (vite.config.ts, `bundle` mode): the loader `dist/crypto-checkout.js`.
import type { Plugin } from 'vite';
import { verifiedImport, verifiedImportKey } from './verified-import.ts';

/**
 * The script-tag entry, `dist/crypto-checkout.js`: a small loader with no import or export statement, so it runs
 * from a classic `<script src>` and from `<script type="module" src>` alike, and defines no global. It loads the
 * element (define.ts and what it needs, and what its chunk imports) from chunks next to itself, through the
 * verifying import (build/verified-import.ts), which runs a file only once what it imports has run, verified.
 * The element loads its mode's view the same way: a page downloads the view of its mode only (the loader once
 * asked for it beside the element's chunk, but a view may run only once that chunk has, verified, so the
 * element's own request, made as it is defined, comes as soon, and its hashes are not sent twice). Chunks are found from
 * the script's own URL: `document.currentScript` in a classic script, its `<script>` by file name in a module
 * script (whose import.meta.url a file that must also parse as a classic script cannot name).
 */
// Vite resolves lib entries against the root, so the virtual id is matched by its end.
export const bundleEntryId = 'virtual:crypto-checkout-bundle';

export interface BundleEntryOptions {
  /** The module that registers the element (define.ts). */
  define: string;
}

export function bundleEntry({ define }: BundleEntryOptions): Plugin {
  const code = `import(${JSON.stringify(define)});`;
  return {
    name: 'crypto-checkout-bundle-entry',
    resolveId: (id) => (id.endsWith(bundleEntryId) ? `\0${bundleEntryId}` : null),
    load: (id) => (id === `\0${bundleEntryId}` ? code : null),
    renderChunk(chunkCode, chunk) {
      if (!chunk.isEntry) return null;
      if (/^\s*(import(?!\s*\()|export\b)/m.test(chunkCode))
        throw new Error(`the script-tag entry must have no import/export:\n${chunkCode}`);
      // Every chunk through the verifying import, from the script's own URL: `h(b,"./x.js")`, which
      // build/pin-chunks.ts gives the chunk's hash and those of what it imports once the files are written. The
      // loader only starts the downloads: the module namespaces the bundler picks out of them (`.then(e=>e.n)`)
      // are never read, so they go, and a failure is the element's to report (it loads the same chunk).
      const rewritten = chunkCode.replace(
        /\bimport\((["'])(\.\/[^"']+)\1\)(\.then\(\s*\(?(\w+)\)?\s*=>\s*\4\.\w+\s*\))?/g,
        'h(b,$1$2$1).catch(()=>{})',
      );
      const found = rewritten !== chunkCode;
      if (!found) throw new Error('the script-tag entry imports no chunk');
      // The script's own URL: `document.currentScript` in a classic script; a module script (where it is null)
      // is found by its file name.
      const base = `const b=(document.currentScript||document.querySelector('script[src*="crypto-checkout.js"]')).src,h=${verifiedImportKey}??=${verifiedImport};`;
      // An arrow run at once: in a classic script, a top-level `var` would be a global.
      return { code: `(()=>{${base}\n${rewritten}})();`, map: null };
    },
  };
}
