// Renders the custom elements of packages/widget/custom-elements.json (built by `npm run build -w
// packages/widget`) as Markdown tables: attributes, properties, events, CSS custom properties, parts, slots.
// Prints to stdout: `node scripts/element-docs.mjs [path/to/custom-elements.json] > docs.md`.
// `--readme` writes them into docs/element.md (the page the README links to) between the element-docs markers;
// `--check` exits 1 when that page is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const flags = new Set(process.argv.slice(2).filter((arg) => arg.startsWith('--')));
const file =
  process.argv.slice(2).find((arg) => !arg.startsWith('--')) ??
  join(root, 'packages', 'widget', 'custom-elements.json');

let manifest;
try {
  manifest = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  console.error(
    `Cannot read ${file} (build the widget first: npm run build -w packages/widget): ${error.message}`,
  );
  process.exit(1);
}

/** One table cell: no pipes or newlines, code spans kept. */
const cell = (value) =>
  value === undefined || value === null || value === ''
    ? ''
    : String(value)
        .replaceAll('|', '\\|')
        .replace(/\s*\n\s*/g, ' ');
const code = (value) => (value === undefined || value === null || value === '' ? '' : `\`${cell(value)}\``);

function table(headers, rows) {
  if (rows.length === 0) return '';
  return [
    `| ${headers.join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
    '',
  ].join('\n');
}

function section(title, headers, rows) {
  const body = table(headers, rows);
  return body ? `### ${title}\n\n${body}` : '';
}

function renderElement(element) {
  const publicFields = (element.members ?? []).filter(
    (member) =>
      member.kind === 'field' &&
      !member.static &&
      (member.privacy ?? 'public') === 'public' &&
      !member.name.startsWith('_') &&
      !member.name.startsWith('#'),
  );
  const attributes = element.attributes ?? [];
  const attributeOf = (field) => attributes.find((attribute) => attribute.fieldName === field.name)?.name;

  const parts = [
    `## \`<${element.tagName}>\``,
    '',
    [element.summary, element.description].filter(Boolean).join('\n\n'),
    '',
    section(
      'Attributes',
      ['Attribute', 'Property', 'Type', 'Default', 'Description'],
      attributes.map((attribute) => [
        code(attribute.name),
        code(attribute.fieldName),
        code(attribute.type?.text),
        code(attribute.default),
        cell(attribute.description),
      ]),
    ),
    section(
      'Properties',
      ['Property', 'Attribute', 'Type', 'Default', 'Description'],
      publicFields.map((field) => [
        code(field.name),
        code(attributeOf(field)),
        code(field.type?.text),
        code(field.default),
        cell(`${field.readonly ? '(read-only) ' : ''}${field.description ?? ''}`),
      ]),
    ),
    section(
      'Events',
      ['Event', 'Type', 'Description'],
      (element.events ?? [])
        .filter((event) => event.name)
        .map((event) => [code(event.name), code(event.type?.text), cell(event.description)]),
    ),
    section(
      'CSS custom properties',
      ['Property', 'Default', 'Description'],
      (element.cssProperties ?? []).map((property) => [
        code(property.name),
        code(property.default),
        cell(property.description),
      ]),
    ),
    section(
      'CSS parts',
      ['Part', 'Description'],
      (element.cssParts ?? []).map((part) => [code(part.name), cell(part.description)]),
    ),
    section(
      'Slots',
      ['Slot', 'Description'],
      (element.slots ?? []).map((slot) => [
        slot.name ? code(slot.name) : '(default)',
        cell(slot.description),
      ]),
    ),
  ];
  return parts.filter((part, index) => part !== '' || parts[index - 1] !== '').join('\n');
}

const elements = (manifest.modules ?? [])
  .flatMap((module) => module.declarations ?? [])
  .filter((declaration) => declaration.customElement && declaration.tagName);

if (elements.length === 0) {
  console.error(`${file} declares no custom element with a tag name.`);
  process.exit(1);
}
const docs = `${elements.map(renderElement).join('\n').trimEnd()}\n`;

if (!flags.has('--readme') && !flags.has('--check')) {
  process.stdout.write(docs);
} else {
  const readmePath = join(root, 'docs', 'element.md');
  const readme = readFileSync(readmePath, 'utf8');
  const start = '<!-- element-docs:start -->';
  const end = '<!-- element-docs:end -->';
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) {
    console.error(`docs/element.md has no ${start} … ${end} section.`);
    process.exit(1);
  }
  // As rendered: the page's own "# The element" holds these.
  const updated = `${readme.slice(0, from + start.length)}\n${docs}${readme.slice(to)}`;
  if (flags.has('--check')) {
    if (updated !== readme) {
      console.error(
        'docs/element.md is out of date with custom-elements.json: run node scripts/element-docs.mjs --readme',
      );
      process.exit(1);
    }
  } else {
    writeFileSync(readmePath, updated);
  }
}
