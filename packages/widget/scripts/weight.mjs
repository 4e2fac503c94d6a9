// What a page downloads of the built widget, read from dist/ (after `npm run build -w packages/widget`):
// - the script-tag bundle: the loader, the element's chunk and each mode's view chunk with their static imports;
//   `initial(mode)` is what a page of that mode downloads before its first quote or product can show;
// - the npm entries: the files `dist/index.js` reaches by static imports (the views stay dynamic imports).
// Used by the size test (test/package.test.ts) and the bench (bench/weight.ts). Plain Node, no dependencies.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** gzip (level 9) and brotli (quality 11) sizes of one file's bytes. */
export function sizesOf(data) {
  const raw = Buffer.from(data);
  return {
    raw: raw.length,
    gzip: gzipSync(raw, { level: 9 }).length,
    brotli: brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    }).length,
  };
}

/** Sizes of files downloaded one by one (each compressed on its own, as a server sends them), summed. */
export function sizesOfFiles(files) {
  const each = files.map((file) => sizesOf(readFileSync(file)));
  return {
    raw: each.reduce((t, s) => t + s.raw, 0),
    gzip: each.reduce((t, s) => t + s.gzip, 0),
    brotli: each.reduce((t, s) => t + s.brotli, 0),
  };
}

/** `file` and every file it reaches through static `import … from "./x.js"` (not `import()`), in load order. */
export function staticClosure(file, seen = new Set()) {
  if (seen.has(file)) return [...seen];
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  for (const [, spec] of code.matchAll(/(?:\bfrom|\bimport)\s*["'`](\.{1,2}\/[^"'`]+)["'`]/g))
    staticClosure(resolve(dirname(file), spec), seen);
  return [...seen];
}

/**
 * The script-tag bundle's files: loader, the element's chunk, each mode's view chunk, each language's chunk. The
 * loader loads the element's chunk; the modes are the element's (its `views`, one per mode of src/modes.ts).
 */
export function scriptTagGraph(dist) {
  // Each chunk is loaded by a verifying import (build/pin-chunks.ts) whose chain, "./file hash …", ends with it.
  const target = (chain) => chain.split(' ').at(-2).replace(/^\.\//, '');
  const loader = resolve(dist, 'crypto-checkout.js');
  const code = readFileSync(loader, 'utf8');
  const elementChain = /\(\w+,`(\.\/[^`]+)`\)/.exec(code)?.[1];
  if (!elementChain) throw new Error(`cannot read the chunks of ${loader}: ${code.slice(0, 300)}`);
  const element = resolve(dist, target(elementChain));
  const elementCode = readFileSync(element, 'utf8');
  const views = {};
  for (const [, mode, chain] of elementCode.matchAll(/(\w+):\(\)=>\$cc\(import\.meta\.url,`([^`]+)`\)/g))
    views[mode] = resolve(dist, target(chain));
  const modes = Object.keys(views);
  if (!modes.length) throw new Error(`cannot find the views in ${element}`);
  const loads = (file) =>
    [...readFileSync(file, 'utf8').matchAll(/\$cc\(import\.meta\.url,`([^`]+)`\)/g)].map(([, chain]) =>
      target(chain),
    );
  const listed = loads(element).find((file) => /^crypto-checkout-languages-[\w-]+\.js$/.test(file));
  if (!listed) throw new Error(`cannot find the list of languages in ${element}`);
  const languageList = resolve(dist, listed);
  const languages = {};
  for (const file of loads(languageList)) {
    const lang = /^crypto-checkout-([a-z]{2,3})-[\w-]+\.js$/.exec(file)?.[1];
    if (lang) languages[lang] = resolve(dist, file);
  }
  const name = (file) => relative(dist, file);
  /** What a page of `mode` (in English; add `languageList` and `languages[lang]` for another) downloads before it can show. */
  const initial = (mode) => [...new Set([loader, ...staticClosure(element), ...staticClosure(views[mode])])];
  /**
   * The lazy parts, by chunk name (`frame`, `picker`, `session`, `order`, `status`): the chunks no page downloads
   * before it shows, other than languages, each loaded when the shopper reaches it (or when the browser is idle).
   */
  const first = new Set([...modes.flatMap(initial), languageList, ...Object.values(languages)]);
  const parts = {};
  for (const file of readdirSync(dist)) {
    const part = /^crypto-checkout-([a-z]+)-[\w-]+\.js$/.exec(file)?.[1];
    if (part && !first.has(resolve(dist, file))) parts[part] = resolve(dist, file);
  }
  /** What a mode's view adds to the element's chunk (its lazy part). */
  const lazy = (mode) => staticClosure(views[mode]).filter((file) => !staticClosure(element).includes(file));
  return { loader, element, modes, views, languageList, languages, parts, initial, lazy, name };
}
