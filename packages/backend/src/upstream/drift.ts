/**
 * Shape drift: the upstream answering in a shape our lenient parsers had to drop parts of. Each kind (the
 * endpoint and the field) is logged once, kept with a count, and shown in `/healthz` and the admin API, so a change
 * upstream is seen by the operator at once instead of surfacing as shoppers' "not supported" errors.
 */
export interface DriftEntry {
  path: string;
  field: string;
  detail: string;
  firstSeenAt: string;
  lastSeenAt: string;
  count: number;
}

export function createDriftLog(log: (line: string) => void, now: () => number = Date.now) {
  const entries = new Map<string, DriftEntry>();
  return {
    note(path: string, field: string, detail: string): void {
      const key = `${path} ${field}`;
      const at = new Date(now()).toISOString();
      const entry = entries.get(key);
      if (entry) {
        entry.count += 1;
        entry.lastSeenAt = at;
        entry.detail = detail;
        return;
      }
      entries.set(key, { path, field, detail, firstSeenAt: at, lastSeenAt: at, count: 1 });
      log(`[upstream drift] ${path}: ${field}: ${detail}`);
    },
    list: (): DriftEntry[] => [...entries.values()].map((entry) => ({ ...entry })),
  };
}

export type DriftLog = ReturnType<typeof createDriftLog>;
