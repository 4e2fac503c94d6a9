// Builds packages/widget. Two builds, picked by `--mode` (packages/widget/scripts/build.mjs runs both):
//   lib     (default) the npm entries dist/index.js, dist/define.js, dist/react.js: ES modules, unminified,
//           with lit, @lit/*, react and react-dom left to the consumer's bundler.
//   bundle  the script-tag bundle dist/crypto-checkout.js: one minified IIFE with Lit inside that registers
//           the element. An IIFE has no import/export syntax, so it runs from a classic <script src> and from
//           <script type="module" src> alike, and it defines no global of its own.
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, parseAst, type UserConfig } from 'vite';

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

/** The bundle's entry: only the side effect of define.ts, so the IIFE needs no global name. */
// Vite resolves lib entries against the root, so the virtual id is matched by its end.
const bundleEntryId = 'virtual:crypto-checkout-bundle';
function bundleEntry(): Plugin {
  return {
    name: 'crypto-checkout-bundle-entry',
    resolveId: (id) => (id.endsWith(bundleEntryId) ? `\0${bundleEntryId}` : null),
    load: (id) => (id === `\0${bundleEntryId}` ? `import ${JSON.stringify(src('define.ts'))};` : null),
  };
}

/** Our own members named `_x` (private by the house convention) get short names in the bundle, consistently
 *  across it: the names repeat in every method and make up over 1 kB of it. Lit's own internals (`_$x`, `_`) do
 *  not match; nothing outside the bundle reaches a `_x` member (the tests that steer one import the sources). */
function mangleInternals(): Plugin {
  return {
    name: 'crypto-checkout-mangle-internals',
    async renderChunk(code) {
      const { transform } = await import('esbuild');
      const out = await transform(code, { mangleProps: /^_[a-z]/, sourcemap: true, logLevel: 'warning' });
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
