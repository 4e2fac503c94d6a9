/**
 * The warnings of a loop that keeps failing while something it needs is away (the database under the delivery
 * worker, the payments API under the status syncs): the first is said at once, the next ones at growing intervals
 * (10 s, 20 s, 40 s … up to 5 minutes) each with how many were held back since, and one info line says when it is
 * over and how long it lasted. An outage of an hour is about 20 lines, where a warning per pass was 3,600.
 */
import type { Clock } from './clock.ts';
import { type LogLine, logger } from './logger.ts';

export interface OutageLogOptions {
  /** What is away, as the lines name it: `the database`. */
  subject: string;
  /** The lines' prefix: `[events]`. */
  prefix: string;
  clock: Clock;
  /** Where the warnings go (default the logger's warn). */
  warn?: LogLine | undefined;
  /** Where the line saying it is over goes (default the logger's info). */
  info?: LogLine | undefined;
  /** The wait before the first repeated warning (default 10 s); each next one doubles, up to `maxRepeatMs` (5 min). */
  firstRepeatMs?: number;
  maxRepeatMs?: number;
}

export interface OutageLog {
  /** One more failure: logged now, or held back and counted until the next interval ends. */
  failed(line: string, fields?: Record<string, unknown>): void;
  /** A success: ends the outage (one line saying so) if there was one; nothing otherwise. */
  recovered(): void;
}

export function createOutageLog(options: OutageLogOptions): OutageLog {
  const { clock, subject, prefix } = options;
  const warn = options.warn ?? logger.warn;
  const info = options.info ?? logger.info;
  const firstRepeatMs = options.firstRepeatMs ?? 10_000;
  const maxRepeatMs = options.maxRepeatMs ?? 300_000;
  let since: number | undefined;
  let nextAt = 0;
  let intervalMs = firstRepeatMs;
  let heldBack = 0;
  let failures = 0;
  const seconds = (ms: number) => Math.round(ms / 1000);
  return {
    failed(line, fields) {
      const now = clock.now();
      failures += 1;
      if (since === undefined) {
        since = now;
        intervalMs = firstRepeatMs;
        nextAt = now + intervalMs;
        warn(line, fields);
        return;
      }
      if (now < nextAt) {
        heldBack += 1;
        return;
      }
      warn(
        `${line} (failing for ${seconds(now - since)} s; ${heldBack} more like it held back since the last warning)`,
        { ...fields, heldBack, failingForS: seconds(now - since) },
      );
      heldBack = 0;
      intervalMs = Math.min(intervalMs * 2, maxRepeatMs);
      nextAt = now + intervalMs;
    },
    recovered() {
      if (since === undefined) return;
      const lasted = seconds(clock.now() - since);
      info(`${prefix} ${subject} is reachable again after ${lasted} s (${failures} failed attempts)`, {
        outageS: lasted,
        failures,
      });
      since = undefined;
      heldBack = 0;
      failures = 0;
    },
  };
}
