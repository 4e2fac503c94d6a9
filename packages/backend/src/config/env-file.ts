/** The `.env` file: read into the environment, and where each of its variables was set (for messages). */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import type { VariableSource } from '../secrets/samples.ts';

/**
 * Reads `.env` in `dir` (the working directory) into `process.env` with Node's own parser
 * (`process.loadEnvFile`, the format of `node --env-file`). A variable already in the environment wins over the
 * file. Returns the file's path, or undefined when there is none. Node's rather than dotenv's: no dependency, the
 * format operators meet in `node --env-file`, present since Node 20.12 (our floor is 20.19) and stable in later
 * lines; the format is dotenv's (quotes, `export`, `#` comments, multi-line quoted values).
 */
export function readEnvFile(dir: string = process.cwd()): string | undefined {
  const file = path.resolve(dir, '.env');
  if (!existsSync(file)) return undefined;
  process.loadEnvFile(file);
  return file;
}

/**
 * Where each variable `env` took from the `.env` file `file` was set (`/srv/shop/.env line 39`), for messages
 * that name it; undefined for a variable the environment set (it wins over the file) or the file does not set.
 */
export function envFileSource(file: string, env: Record<string, string | undefined>): VariableSource {
  const text = readFileSync(file, 'utf8');
  const values = parseEnv(text);
  const lines = new Map<string, number>();
  // The last assignment is the one the parser keeps.
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    const name = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1];
    if (name) lines.set(name, index + 1);
  }
  return (name) => {
    const line = lines.get(name);
    return line !== undefined && values[name] === env[name] ? `${file} line ${line}` : undefined;
  };
}
