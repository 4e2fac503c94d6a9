// A plugin of the script-tag bundle (vite.config.ts, `bundle` mode): our html`` and css`` literals squeezed.
import { type Plugin, parseAst } from 'vite';

/** Squeezes the whitespace of our html`` and css`` literals in the bundle; the minifier keeps template text as is.
 *  html: a whitespace run holding a line break becomes one space, except inside a quoted attribute value or
 *  the content of a <pre> or <textarea> (left alone), so the page renders and reads the same; a static attribute
 *  value that needs no quotes loses them (the parser reads the same attribute). css: comments go,
 *  and spaces around punctuation.
 *  `sources`: the folder whose TypeScript files are squeezed (the widget's src/, not Lit's). */
export function squeezeLiterals(sources: string): Plugin {
  const squeezeHtml = (quasis: string[]): string[] => {
    let state: 'text' | 'tag' | '"' | "'" | 'verbatim' = 'text';
    /** The tag being read, and the element whose content is kept as is (pre, textarea) until it closes. */
    let tagName = '';
    let verbatim = '';
    return quasis.map((raw) => {
      let out = '';
      for (let i = 0; i < raw.length; i++) {
        const ch = raw[i] as string;
        if (state === 'verbatim') {
          if (raw.slice(i, i + verbatim.length + 2).toLowerCase() === `</${verbatim}`) state = 'tag';
        } else if (state === '"' || state === "'") {
          if (ch === state) state = 'tag';
        } else if (/\s/.test(ch)) {
          const run = /^\s+/.exec(raw.slice(i))?.[0] ?? ch;
          out += run.includes('\n') ? ' ' : run;
          i += run.length - 1;
          continue;
        } else if (state === 'text' && ch === '<' && /[a-z/]/i.test(raw[i + 1] ?? '')) {
          state = 'tag';
          tagName = /^[a-z][\w-]*/i.exec(raw.slice(i + 1))?.[0]?.toLowerCase() ?? '';
        } else if (state === 'tag' && (ch === '"' || ch === "'")) {
          // A static value that needs no quotes loses them (`class="row"` → `class=row`): the same attribute
          // for the HTML parser, when the value has none of space " ' = < > ` / and a space or `>` follows it.
          const end = raw.indexOf(ch, i + 1);
          const value = raw.slice(i + 1, end);
          if (
            raw[i - 1] === '=' &&
            end > i + 1 &&
            /^[\w.:;#%+,-]+$/.test(value) &&
            /[\s>]/.test(raw[end + 1] ?? '')
          ) {
            out += value;
            i = end;
            continue;
          }
          state = ch;
        } else if (state === 'tag' && ch === '>') {
          state = tagName === 'pre' || tagName === 'textarea' ? 'verbatim' : 'text';
          verbatim = tagName;
          tagName = '';
        }
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
      if (!id.startsWith(sources) || !/\.ts$/.test(id)) return null;
      const edits: { start: number; end: number; text: string }[] = [];
      const visit = (node: unknown): void => {
        if (!node || typeof node !== 'object') return;
        const n = node as Record<string, unknown> & { type?: string };
        const tag = n.type === 'TaggedTemplateExpression' ? (n.tag as { name?: string }).name : undefined;
        if (tag === 'html' || tag === 'css') {
          const quasis = (n.quasi as { quasis: { start: number; end: number; value: { raw: string } }[] })
            .quasis;
          const raws = quasis.map((q) => q.value.raw);
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
