// A plugin of both builds (vite.config.ts): each language file shipped as its table, without the keys.
import { type Plugin, parseAst } from 'vite';
import type { Message } from '../src/internal/messages.ts';
import { pack, type Table } from '../src/internal/translation.ts';

type Node = Record<string, unknown> & { type?: string };

/** The string a literal node holds (a quoted string, or a template without `${}`). */
function stringOf(node: Node, where: string): string {
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  const quasis = node.quasis as { value: { cooked: string } }[] | undefined;
  if (node.type === 'TemplateLiteral' && quasis?.length === 1 && quasis[0]) return quasis[0].value.cooked;
  throw new Error(`${where}: a message must be a plain string`);
}

/** The key of an object property (`name:` or `'name':`). */
function keyOf(property: Node, where: string): string {
  const key = property.key as Node;
  if (property.type !== 'Property' || property.computed) throw new Error(`${where}: a plain property only`);
  if (key.type === 'Identifier') return key.name as string;
  return stringOf(key, where);
}

/** An object literal of string literals, read without running it. */
function objectOf(node: Node, where: string): Record<string, Node> {
  if (node.type !== 'ObjectExpression') throw new Error(`${where}: an object literal is expected`);
  return Object.fromEntries((node.properties as Node[]).map((p) => [keyOf(p, where), p.value as Node]));
}

/** A message: a plain string, or a plural's object of plain strings (`{ one: '…', other: '…' }`). */
function messageOf(node: Node, where: string): Message {
  if (node.type !== 'ObjectExpression') return stringOf(node, where);
  const forms = Object.fromEntries(
    Object.entries(objectOf(node, where)).map(([form, text]) => [form, stringOf(text, `${where}.${form}`)]),
  );
  if (typeof forms.other !== 'string') throw new Error(`${where}: a plural needs its \`other\` form`);
  return forms as Message;
}

/**
 * The table of a language file's source, `export default translation({ part: { key: 'message', … }, … })`,
 * read from its syntax: the same table `translation()` makes when the file runs (a unit test holds them equal).
 */
export function tableOfSource(code: string, id = 'a language file'): Table {
  const program = parseAst(code, { lang: 'ts' }) as unknown as { body: Node[] };
  const exported = program.body.find((node) => node.type === 'ExportDefaultDeclaration')?.declaration as
    | Node
    | undefined;
  const callee = exported?.callee as Node | undefined;
  const [argument] = (exported?.arguments as Node[] | undefined) ?? [];
  if (exported?.type !== 'CallExpression' || callee?.name !== 'translation' || !argument)
    throw new Error(`${id}: expected \`export default translation({ … })\``);
  const parts = objectOf(argument, id);
  return pack(
    Object.fromEntries(
      Object.entries(parts).map(([part, block]) => [
        part,
        Object.fromEntries(
          Object.entries(objectOf(block, `${id} ${part}`)).map(([key, value]) => [
            key,
            messageOf(value, `${id} ${part}.${key}`),
          ]),
        ),
      ]),
    ),
  );
}

/**
 * Each language file (`languages`: their folder) becomes `export default { part: [message, …], … }`: its table, as
 * `translation()` would make it, with no key and no call left (nor `translation` itself, then unused).
 */
export function packTranslations(languages: string): Plugin {
  return {
    name: 'crypto-checkout-pack-translations',
    enforce: 'pre',
    transform(code, id) {
      if (!id.startsWith(languages) || !id.endsWith('.ts')) return null;
      return { code: `export default ${JSON.stringify(tableOfSource(code, id))};\n`, map: null };
    },
  };
}
