/**
 * The backend's one way to write a line out: every module logs through `logger` (or a `log` option that defaults
 * to it), never through `console`, so what a line looks like and where it goes is decided here alone (switching
 * to JSON lines, say, is a change to this file). Today: plain text, `info` on stdout, `warn` and `error` on stderr.
 */
export interface Logger {
  /** What an operator reads in passing: the banner, one line per request (ACCESS_LOG). */
  info(line: string): void;
  /** Something went wrong and was handled (an upstream failure, a retry, a delivery that will be tried again). */
  warn(line: string): void;
  /** Something went wrong that nothing handled; `error` is the thrown value, with its stack. */
  error(line: string, error?: unknown): void;
}

/** What a module takes as its `log` option: one line, handled as a warning unless it says otherwise. */
export type LogLine = (line: string) => void;

export const logger: Logger = {
  info: (line) => console.log(line),
  warn: (line) => console.warn(line),
  error: (line, error) => (error === undefined ? console.error(line) : console.error(line, error)),
};
