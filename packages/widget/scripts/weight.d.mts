// Types of weight.mjs (a plain script, so that Node runs it without a build).
import type { CheckoutMode } from '../src/modes.ts';

export interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}
export function sizesOf(data: Uint8Array | string): Sizes;
export function sizesOfFiles(files: string[]): Sizes;
export function staticClosure(file: string, seen?: Set<string>): string[];
export interface ScriptTagGraph {
  loader: string;
  element: string;
  /** The modes, as the loader lists them (those of src/modes.ts). */
  modes: CheckoutMode[];
  views: Record<CheckoutMode, string>;
  /** The chunk listing the languages (loaded by a page whose locale is not English, before its language's). */
  languageList: string;
  /** Each language's chunk, by its code. */
  languages: Record<string, string>;
  /** The lazy parts by chunk name (frame, picker, session, order, status): what no page downloads before it shows. */
  parts: Record<string, string>;
  initial(mode: string): string[];
  lazy(mode: string): string[];
  name(file: string): string;
}
export function scriptTagGraph(dist: string): ScriptTagGraph;
