// The script-tag bundle's entry (vite.config.ts, `bundle` mode): the loader `dist/crypto-checkout.js`.
import type { Plugin, Rolldown } from 'vite';

/**
 * The script-tag entry, `dist/crypto-checkout.js`: a small loader with no import or export statement, so it runs
 * from a classic `<script src>` and from `<script type="module" src>` alike, and defines no global. It loads the
 * element (define.ts and what it needs, and what its chunk imports) and, for each element already on the page,
 * its mode's view, in parallel, from chunks next to itself: a page downloads the view of its mode only, and a
 * mode switch loads the next view once. Chunks are found from the script's own URL: `document.currentScript` in
 * a classic script; in a module script the relative `import()` resolves against the module's own URL (its
 * import.meta.url, which a file that must also parse as a classic script cannot name).
 */
// Vite resolves lib entries against the root, so the virtual id is matched by its end.
export const bundleEntryId = 'virtual:crypto-checkout-bundle';

export interface BundleEntryOptions {
  /** The module that registers the element (define.ts). */
  define: string;
  /** Each mode's view module, by mode. */
  views: Record<string, string>;
  /** The mode of an element without a `mode` attribute. */
  defaultMode: string;
  /** The name of the element's chunk (what define.ts and every mode need). */
  elementChunk: string;
}

export function bundleEntry({ define, views, defaultMode, elementChunk }: BundleEntryOptions): Plugin {
  const view = ([mode, file]: [string, string]) => `${mode}: () => import(${JSON.stringify(file)})`;
  const code = `const views = { ${Object.entries(views).map(view).join(', ')} };
import(${JSON.stringify(define)});
for (const el of document.querySelectorAll('crypto-checkout')) views[el.getAttribute('mode') || ${JSON.stringify(defaultMode)}]?.();`;
  return {
    name: 'crypto-checkout-bundle-entry',
    resolveId: (id) => (id.endsWith(bundleEntryId) ? `\0${bundleEntryId}` : null),
    load: (id) => (id === `\0${bundleEntryId}` ? code : null),
    renderChunk(chunkCode, chunk) {
      if (!chunk.isEntry) return null;
      if (/^\s*(import(?!\s*\()|export\b)/m.test(chunkCode))
        throw new Error(`the script-tag entry must have no import/export:\n${chunkCode}`);
      // Every chunk URL from the script's own: `u("./x.js")`. The loader only starts the downloads: the module
      // namespaces the bundler picks out of them (`.then(e=>e.n)`) are never read, so they go.
      const rewritten = chunkCode.replace(
        /\bimport\((["'])(\.\/[^"']+)\1\)(\.then\(\s*\(?(\w+)\)?\s*=>\s*\4\.\w+\s*\))?/g,
        'import(u($1$2$1))',
      );
      const found = rewritten !== chunkCode;
      if (!found) throw new Error('the script-tag entry imports no chunk');
      const base = 'const s=document.currentScript,u=p=>s&&s.src?new URL(p,s.src).href:p;';
      // An arrow run at once: in a classic script, a top-level `var` would be a global.
      return { code: `(()=>{${base}\n${rewritten}})();`, map: null };
    },
    generateBundle(_options, bundle) {
      // What the element's chunk imports statically (rolldown's runtime, which every chunk imports) is asked for
      // beside it: the browser would ask only once the element's chunk had arrived and been read, a round trip
      // later (when the element is defined after navigation: `npm run bench -- ttfq`, with its +40 ms a request
      // series).
      const chunks = new Map<string, Rolldown.OutputChunk>();
      for (const file of Object.values(bundle)) if (file.type === 'chunk') chunks.set(file.fileName, file);
      const loader = [...chunks.values()].find((c) => c.isEntry);
      const element = [...chunks.values()].find((c) => c.name === elementChunk);
      if (!loader || !element) throw new Error('the script-tag bundle has no loader or no element chunk');
      const deps = new Set<string>();
      const walk = (file: string): void => {
        for (const dep of chunks.get(file)?.imports ?? []) {
          if (deps.has(dep)) continue;
          deps.add(dep);
          walk(dep);
        }
      };
      walk(element.fileName);
      // A view imports nothing statically that the element's chunk does not bring (else it would wait too).
      for (const view of loader.dynamicImports) {
        const missing = (chunks.get(view)?.imports ?? []).filter(
          (f) => f !== element.fileName && !deps.has(f),
        );
        if (missing.length)
          throw new Error(`the view ${view} imports ${missing.join(', ')} statically: load it beside`);
      }
      const call = new RegExp(`import\\((\\w+)\\(\`\\./${element.fileName.replace(/[.$]/g, '\\$&')}\`\\)\\)`);
      const code = loader.code.replace(call, (all, u: string) =>
        [all, ...[...deps].map((dep) => `import(${u}(\`./${dep}\`))`)].join(','),
      );
      if (code === loader.code)
        throw new Error(`cannot find the element's import in the loader: ${loader.code}`);
      loader.code = code;
    },
  };
}
