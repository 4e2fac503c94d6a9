/**
 * Every setting, one entry each (settings/ holds them by subject; setting.ts says what an entry declares), and what
 * is derived from them: the environment's schema, the list of variables, the fields a variable sets as it is, and
 * the schema a config given in code meets. Adding a variable is one entry in settings/ (CONTRIBUTING.md shows one).
 */
import { z } from 'zod';
import type { AdminConfig, SecretsConfig } from '../secrets/config.ts';
import type { ObservabilityConfig } from './observability.ts';
import type { Setting } from './setting.ts';
import { httpSettings } from './settings/http.ts';
import { observabilitySettings } from './settings/observability.ts';
import { quoteSettings } from './settings/quotes.ts';
import { secretSettings } from './settings/secrets.ts';
import { shopSettings } from './settings/shop.ts';
import { storageSettings } from './settings/storage.ts';
import { upstreamSettings } from './settings/upstream.ts';

export const settings = {
  ...httpSettings,
  ...shopSettings,
  ...storageSettings,
  ...upstreamSettings,
  ...quoteSettings,
  ...secretSettings,
  ...observabilitySettings,
};
type Settings = typeof settings;
type Name = keyof Settings;
const entries = Object.entries(settings) as Array<[Name, Setting]>;

/** The environment's schema: each variable under its entry's rule. */
export const envSchema = z.object(
  Object.fromEntries(entries.map(([name, entry]) => [name, entry.env])) as {
    [K in Name]: Settings[K]['env'];
  },
);
export type EnvVars = z.output<typeof envSchema>;

/** Every variable the backend reads (`.env.example` and docs/configuration.md document each). */
export const envVariables = entries.map(([name]) => name) as ReadonlyArray<Name>;

interface Tree {
  [key: string]: Tree | unknown;
}

function place(tree: Tree, path: string, value: unknown) {
  const keys = path.split('.');
  const last = keys.pop() ?? path;
  let node = tree;
  for (const key of keys) {
    node[key] ??= {};
    node = node[key] as Tree;
  }
  node[last] = value;
}

/** The fields each variable sets as it is (or through its `to`), nested as `Config` nests them. */
export function plainFields(vars: EnvVars): Tree {
  const config: Tree = {};
  for (const [name, entry] of entries) {
    if (entry.decided) continue;
    const value = vars[name];
    place(config, entry.at, entry.to ? entry.to(value) : value);
  }
  return config;
}

const built = (what: string) =>
  z.custom<object>((value) => typeof value === 'object' && value !== null, `missing: spread ${what}`);

/** The fields of `Config` no single variable sets: the mode, and the blocks loadConfig builds from several. */
const codeOnly: Record<string, z.ZodType> = {
  mode: z.enum(['sandbox', 'live']),
  // Where createCheckout first took its onEvent option; still accepted there (runtime.ts moves it out).
  'events.onEvent': z
    .custom<(...args: never[]) => unknown>((value) => typeof value === 'function', 'must be a function')
    .optional(),
  // Built by loadConfig from the *_PREVIOUS and ADMIN_CREDENTIALS variables (secrets/config.ts checks them there).
  secrets: built('loadConfig()') as z.ZodType<SecretsConfig>,
  observability: built('loadConfig()') as z.ZodType<ObservabilityConfig>,
  admin: built('loadConfig()') as z.ZodType<AdminConfig>,
};

/** Blocks a config given in code may leave out (their defaults apply). */
const optionalBlocks = new Set(['shutdown', 'orderFollow', 'paymentPolicy', 'console']);

const isSchema = (value: unknown): value is z.ZodType =>
  typeof value === 'object' && value !== null && '_zod' in value;

function objectOf(tree: Tree, prefix = ''): z.ZodObject {
  return z.object(
    Object.fromEntries(
      Object.entries(tree).map(([key, node]) => {
        const field = isSchema(node) ? node : objectOf(node as Tree, `${prefix}${key}.`);
        return [key, optionalBlocks.has(`${prefix}${key}`) ? field.optional() : field];
      }),
    ),
  );
}

/** The schema of a config given in code: each field under the rule of the variable it comes from. */
export const codeConfigSchema = (() => {
  const tree: Tree = {};
  place(tree, 'mode', codeOnly['mode']);
  for (const [, entry] of entries) if (entry.code) place(tree, entry.at, entry.code);
  for (const [path, rule] of Object.entries(codeOnly)) if (path !== 'mode') place(tree, path, rule);
  return objectOf(tree);
})();
