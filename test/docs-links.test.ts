/**
 * Every relative link of the README, CONTRIBUTING, the packages' READMEs and API.md, and the pages in docs/ leads
 * somewhere: to a file or folder that exists and, when it names a `#fragment`, to a heading (or an `id`/`name`
 * anchor) of that file, as GitHub makes its anchors. A chapter moved out of the README leaves no link behind it.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const docs = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => join('docs', name));
const pages = [
  'README.md',
  'CONTRIBUTING.md',
  ...docs,
  'packages/backend/README.md',
  'packages/backend/API.md',
  'packages/widget/README.md',
  'packages/sandbox/README.md',
].filter((page) => existsSync(join(root, page)));

/** The text of `markdown` outside fenced code blocks (links in code are examples, not links). */
function prose(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading = ''] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, (tag) => (/^<[a-z/]/i.test(tag) && !tag.includes('-') ? '' : tag));
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    anchors.add(count ? `${base}-${count}` : base);
    seen.set(base, count + 1);
  }
  for (const [, id = ''] of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id);
  return anchors;
}

/** Each relative link target of `markdown`: inline links and images, and reference definitions. */
function linksOf(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, '');
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (m) => m[1] ?? '',
  );
  const defined = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map(
    (m) => m[1] ?? '',
  );
  return [...inline, ...defined].filter((target) => target && !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('the documentation’s links', () => {
  test('the README is for a newcomer and an embedding developer: under 400 lines', () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n').length;
    assert.ok(lines < 400, `README.md has ${lines} lines`);
  });

  test('the README links every page of docs/', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const linked = new Set(linksOf(readme).map((target) => target.split('#')[0]));
    const unlinked = docs.filter((page) => !linked.has(page));
    assert.deepEqual(unlinked, [], `README.md links no ${unlinked.join(', ')}`);
  });

  for (const page of pages) {
    test(`${page}: each relative link resolves, to a heading where it names one`, () => {
      const markdown = readFileSync(join(root, page), 'utf8');
      const links = linksOf(markdown);
      const broken: string[] = [];
      for (const link of links) {
        const [pathPart = '', fragment] = link.split('#');
        const target = pathPart
          ? resolve(root, dirname(page), decodeURIComponent(pathPart))
          : join(root, page);
        if (!existsSync(target)) {
          broken.push(`${link}: no ${relative(root, target)}`);
          continue;
        }
        if (fragment === undefined || !statSync(target).isFile() || !target.endsWith('.md')) continue;
        if (!anchorsOf(readFileSync(target, 'utf8')).has(decodeURIComponent(fragment).toLowerCase()))
          broken.push(`${link}: ${relative(root, target)} has no heading #${fragment}`);
      }
      assert.deepEqual(broken, [], `${page} (${links.length} links)`);
    });
  }
});
