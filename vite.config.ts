// Builds packages/widget. Two builds, picked by `--mode` (packages/widget/scripts/build.mjs runs both):
//   lib     (default) the npm entries dist/index.js, dist/define.js, dist/react.js: ES modules, unminified,
//           with lit, @lit/*, react and react-dom left to the consumer's bundler.
//   bundle  the script-tag bundle dist/crypto-checkout.js: one minified IIFE with Lit inside that registers
//           the element. An IIFE has no import/export syntax, so it runs from a classic <script src> and from
//           <script type="module" src> alike, and it defines no global of its own.
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, parseAst, type Rolldown, type UserConfig } from 'vite';

// WIDGET_ROOT lets the size-floor measurement build a trivial element the same way (see build.mjs --floor).
const widget = process.env.WIDGET_ROOT ?? fileURLToPath(new URL('./packages/widget/', import.meta.url));
const src = (file: string) => `${widget}src/${file}`;

/** Lit 3 needs decorators lowered the TypeScript way and `useDefineForClassFields: false` semantics
 *  (a class field would shadow Lit's reactive accessor and the element would stop re-rendering). Vite 8's
 *  Oxc reads both from tsconfig.json, but says nothing when it does not find them, so they are spelled out. */
const oxc: UserConfig['oxc'] = {
  decorator: { legacy: true },
  assumptions: { setPublicClassFields: true },
  typescript: { removeClassFieldsWithoutInitializer: true },
};

const external = [
  /^lit(\/|$)/,
  /^@lit\//,
  /^lit-html(\/|$)/,
  /^lit-element(\/|$)/,
  /^react(\/|$)/,
  /^react-dom(\/|$)/,
];

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
const bundleEntryId = 'virtual:crypto-checkout-bundle';
function bundleEntry(): Plugin {
  const view = (mode: string) => `${mode}: () => import(${JSON.stringify(src(`views/${mode}.ts`))})`;
  const code = `const views = { ${['buy', 'sell', 'pay', 'deposit'].map(view).join(', ')} };
import(${JSON.stringify(src('define.ts'))});
for (const el of document.querySelectorAll('crypto-checkout')) views[el.getAttribute('mode') || 'pay']?.();`;
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
      // later. Measured at +40 ms a request, a fresh browser: the loader, the element, then the runtime, the
      // element defined 321–389 ms after navigation; with the runtime beside the element, 248–276 ms.
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

/**
 * Our own members named `_x` (private by the house convention) get short names in the bundle: the names repeat
 * in every method and make up over 1 kB of it. Lit's own internals (`_$x`, `_`) do not match; nothing outside
 * the bundle reaches a `_x` member (the tests that steer one import the sources).
 *
 * One table of names for every chunk, made before any is rendered: a view's chunk reads members the element's
 * chunk defines (a view's base class is there too), so `_x` must get the same name everywhere, and a name
 * already used by any module (Lit's minified members) is never given. Made from the sources alone, the table
 * does not depend on the order chunks render in, so a chunk's content (and its hashed name) changes only
 * with its sources.
 */
function mangleInternals(): Plugin {
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

/** Squeezes the whitespace of our html`` and css`` literals in the bundle; the minifier keeps template text as is.
 *  html: a whitespace run holding a line break becomes one space, except inside a quoted attribute value
 *  (left alone), so the page renders and reads the same. css: comments go, and spaces around punctuation. */
function squeezeLiterals(): Plugin {
  const squeezeHtml = (quasis: string[]): string[] => {
    let state: 'text' | 'tag' | '"' | "'" = 'text';
    return quasis.map((raw) => {
      let out = '';
      for (let i = 0; i < raw.length; i++) {
        const ch = raw[i] as string;
        if (state === '"' || state === "'") {
          if (ch === state) state = 'tag';
        } else if (/\s/.test(ch)) {
          const run = /^\s+/.exec(raw.slice(i))?.[0] ?? ch;
          out += run.includes('\n') ? ' ' : run;
          i += run.length - 1;
          continue;
        } else if (state === 'text' && ch === '<' && /[a-z/]/i.test(raw[i + 1] ?? '')) state = 'tag';
        else if (state === 'tag' && (ch === '"' || ch === "'")) state = ch;
        else if (state === 'tag' && ch === '>') state = 'text';
        out += ch;
      }
      return out;
    });
  };
  const squeezeCss = (quasis: string[]): string[] =>
    quasis.length > 1
      ? quasis.map((raw) => raw.replace(/\s+/g, ' '))
      : quasis.map((raw) =>
          raw
            .replace(/\/\*[\s\S]*?\*\//g, '')
            .replace(/\s+/g, ' ')
            .replace(/ ?([{};,>]) ?/g, '$1')
            .replace(/: /g, ':')
            .replace(/;}/g, '}')
            .trim(),
        );
  return {
    name: 'crypto-checkout-squeeze-literals',
    enforce: 'pre',
    transform(code, id) {
      if (!id.startsWith(src('')) || !/\.ts$/.test(id)) return null;
      const edits: { start: number; end: number; text: string }[] = [];
      const visit = (node: unknown): void => {
        if (!node || typeof node !== 'object') return;
        const n = node as Record<string, unknown> & { type?: string };
        const tag = n.type === 'TaggedTemplateExpression' ? (n.tag as { name?: string }).name : undefined;
        if (tag === 'html' || tag === 'css') {
          const quasis = (n.quasi as { quasis: { start: number; end: number; value: { raw: string } }[] })
            .quasis;
          const raws = quasis.map((q) => q.value.raw);
          if (raws.some((r) => /<(pre|textarea)\b/i.test(r))) return;
          const squeezed = tag === 'html' ? squeezeHtml(raws) : squeezeCss(raws);
          quasis.forEach((q, i) => {
            const span = code.slice(q.start, q.end);
            const at = span.indexOf(q.value.raw);
            if (at < 0) throw new Error(`squeeze-literals: cannot place a template of ${id}`);
            edits.push({
              start: q.start + at,
              end: q.start + at + q.value.raw.length,
              text: squeezed[i] as string,
            });
          });
        }
        for (const value of Object.values(n)) {
          if (Array.isArray(value)) value.forEach(visit);
          else visit(value);
        }
      };
      visit(parseAst(code, { lang: 'ts' }));
      if (!edits.length) return null;
      let out = code;
      for (const e of edits.sort((a, b) => b.start - a.start))
        out = out.slice(0, e.start) + e.text + out.slice(e.end);
      return { code: out, map: null };
    },
  };
}

/** The script-tag bundle's chunk of the element: Lit, and what every mode uses. */
const elementChunk = 'core';

/** The script-tag bundle's view chunks, each loaded by a page of its mode (buy and sell share `ramp`). */
const viewChunks: Record<string, RegExp> = {
  ramp: /src\/(views\/(ramp-view|buy|sell|flag)(\.styles|\.messages)?|internal\/(limits|format)|controllers\/quote-controller)\.ts$/,
  pay: /src\/views\/pay(\.styles|\.messages)?\.ts$/,
  deposit: /src\/views\/deposit(\.styles|\.messages)?\.ts$/,
};

/** The chunks a page runs before its first quote or product: the element's and its mode's view. */
const firstChunks = [elementChunk, ...Object.keys(viewChunks)];

/**
 * The script-tag bundle's lazy parts, each a chunk of its own that the code imports dynamically when the shopper
 * reaches it (or when the browser is idle once the form shows): never in what a page downloads first.
 */
const lazyParts: Record<string, RegExp> = {
  // The payment or ramp page: the frame's controller, the iframe and the modal.
  frame: /src\/(views\/frame(\.messages)?|controllers\/frame-controller)\.ts$/,
  // The searchable picker's open list (the closed field is in the element's chunk).
  picker: /src\/picker\/picker-list\.ts$/,
  // Buy and sell after Continue: the session's page shown, the summary line with Change, the page's success.
  session: /src\/views\/ramp-session\.ts$/,
  // Pay once there is an order (pressed, or restored): its page, its status followed, its outcome and ways on.
  order: /src\/(views\/pay-order(\.messages)?|controllers\/order-status-controller)\.ts$/,
  // The status band the order and the session show (its CSS), shared by both.
  status: /src\/views\/status\.styles\.ts$/,
};

export default defineConfig(({ mode }): UserConfig => {
  const shared: UserConfig = {
    root: widget,
    publicDir: false,
    logLevel: 'warn',
    oxc,
  };
  if (mode === 'bundle') {
    return {
      ...shared,
      plugins: [bundleEntry(), squeezeLiterals(), mangleInternals()],
      build: {
        outDir: 'dist',
        emptyOutDir: false,
        target: 'es2021',
        minify: true,
        sourcemap: true,
        reportCompressedSize: false,
        lib: {
          entry: { 'crypto-checkout': bundleEntryId },
          formats: ['es'],
          fileName: () => 'crypto-checkout.js',
        },
        rolldownOptions: {
          // The loader exports nothing: its chunks may be shaped freely.
          preserveEntrySignatures: false,
          output: {
            // Vite's library mode keeps an ES build's whitespace; these files are for browsers only, so the
            // bundlers' annotations (`/* @__PURE__ */`, 44 B gzip in the element's chunk) go too.
            minify: true,
            comments: { legal: false, annotation: false },
            // Hashed names: the backend serves them immutable for a year. Rolldown's runtime (a helper every chunk
            // imports) by a short name: each chunk names it once.
            chunkFileNames: (chunk) =>
              `crypto-checkout-${chunk.name === 'rolldown-runtime' ? 'rt' : '[name]'}-[hash].js`,
            // The element and each mode's view, which a page runs before its first quote or product: V8 compiles
            // all their functions at once, on the thread that streams the file, rather than each on the main
            // thread when first called (explicit compile hints, Chrome 136; other engines read a comment).
            // Main-thread compiling up to a buy's first quote went from 13–20 ms to under 1 ms (about 8 ms of it
            // the element's), for about 20 B gzip a file.
            postBanner: (chunk) => (firstChunks.includes(chunk.name) ? '//# allFunctionsCalledOnLoad' : ''),
            // Behind the loader: the element with Lit and what every mode uses, one chunk per view (buy and sell
            // share theirs), and the parts a shopper reaches later, each loaded then (see `lazyParts`).
            codeSplitting: {
              includeDependenciesRecursively: false,
              groups: [
                ...Object.entries(viewChunks).map(([name, test]) => ({ name, test })),
                ...Object.entries(lazyParts).map(([name, test]) => ({ name, test })),
                // Each language but English is a chunk of its own (internal/lang/*.ts), loaded by a page that shows it.
                {
                  name: elementChunk,
                  test: (id: string) =>
                    !id.includes(bundleEntryId) &&
                    !/\/internal\/lang\//.test(id) &&
                    !Object.values(lazyParts).some((part) => part.test(id)),
                },
              ],
            },
          },
        },
      },
    };
  }
  if (mode === 'floor') {
    // The size floor (build.mjs --floor): a trivial element, one minified IIFE with Lit inside.
    return {
      ...shared,
      build: {
        outDir: 'dist',
        emptyOutDir: false,
        target: 'es2021',
        minify: true,
        reportCompressedSize: false,
        lib: {
          entry: { 'crypto-checkout': src('define.ts') },
          formats: ['iife'],
          name: 'CryptoCheckoutBundle',
          fileName: () => 'crypto-checkout.js',
        },
        rolldownOptions: { output: { comments: { legal: false } } },
      },
    };
  }
  return {
    ...shared,
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      target: 'es2022',
      minify: false,
      sourcemap: true,
      reportCompressedSize: false,
      lib: {
        entry: { index: src('index.ts'), define: src('define.ts'), react: src('react.ts') },
        formats: ['es'],
        fileName: (_format, name) => `${name}.js`,
      },
      rolldownOptions: {
        external,
        output: { chunkFileNames: 'chunks/[name]-[hash].js' },
      },
    },
  };
});
