/**
 * What the JavaScript runtime running the command lacks of what the backend uses on Node, in one sentence said
 * at start (nothing on Node). Bun and Deno run the same built files; the HTTP contract passes on each, on SQLite
 * (libsql's native binary loads on both) and PostgreSQL, and SIGTERM drains as on Node (test/shutdown.test.ts).
 * What differs is below the API: the heap tuning of young-generation.ts and old-generation.ts is V8's (Bun's
 * JavaScriptCore takes the calls and ignores them), and prom-client's garbage-collection series come from
 * performance entries neither runtime emits.
 */
export function runtimeNote(
  versions: Record<string, string | undefined> = process.versions,
): string | undefined {
  if (versions['bun'])
    return (
      `Running on Bun ${versions['bun']}: V8's heap settings (young generation, old-generation growth) do not ` +
      'apply to its JavaScriptCore heap, and /metrics has no garbage-collection or active-handle series.'
    );
  if (versions['deno'])
    return (
      `Running on Deno ${versions['deno']}: /metrics has no garbage-collection series ` +
      '(nodejs_gc_duration_seconds); everything else runs as on Node.'
    );
  return undefined;
}
