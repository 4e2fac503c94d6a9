/**
 * One environment variable, declared once: its rule on the environment's text (with its default), the line that
 * documents it, where its value lands in `Config`, and the rule a config given in code meets there. The environment's
 * schema, the code config's schema and the plain part of the mapping are all derived from these (registry.ts).
 */
import type { z } from 'zod';
import type { Config } from './config-type.ts';

/** The dotted paths of `Config`'s fields, down to the values (`quoteEngine.freshMs`, `secrets.checkoutToken`). */
type Paths<T, Prefix extends string = ''> = {
  [K in keyof T & string]-?: NonNullable<T[K]> extends readonly unknown[] | string | number | boolean
    ? `${Prefix}${K}`
    : `${Prefix}${K}` | Paths<NonNullable<T[K]>, `${Prefix}${K}.`>;
}[keyof T & string];
export type ConfigPath = Paths<Config>;

export interface Setting<E extends z.ZodType = z.ZodType> {
  /** The rule on the environment's text, its default included. */
  env: E;
  /** What it sets, in one line (`.env.example` and docs/configuration.md say it at length). */
  doc: string;
  /** Where its value lands in `Config`. */
  at: ConfigPath;
  /** The rule the field meets in a config given in code (`createCheckout(config)`); absent: not checked there. */
  code?: z.ZodType;
  /** How the value becomes the field's (absent: as it is). */
  to?(value: z.output<E>): unknown;
  /** loadConfig decides the field from this and other variables (the mode, a sandbox default, a keyring). */
  decided?: true;
}

/** Declares one setting (the helper keeps each entry's own rule type, so the parsed values stay typed). */
export const setting = <E extends z.ZodType>(entry: Setting<E>): Setting<E> => entry;
