/**
 * Where a cached route's time goes: a backend of its own started with `node --cpu-prof`, the route (the cached
 * `GET /api/catalog?country=DE`, or `/healthz`) under autocannon, then the profile's samples summed by where the code lives
 * (our package, Hono, the adapter, Node's HTTP and stream internals, the socket writes, GC) and by function.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon, { type RequestSpec, type Result } from 'autocannon';
import { round, startServer } from './lib.ts';

export interface ProfileResult {
  route: string;
  durationS: number;
  connections: number;
  requestsPerSecond: number;
  /** Sampled time the process was not idle, in seconds. */
  busyS: number;
  idleShare: number;
  /** Share of busy time, by where the code lives. */
  byPlace: Array<{ place: string; share: number }>;
  /** Share of busy time spent in each function itself (self time), the largest first. */
  topSelf: Array<{ fn: string; share: number }>;
  /** Share of busy time spent in each function and what it called (inclusive), for our code and Hono's. */
  topInclusive: Array<{ fn: string; share: number }>;
}

export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  samples: number[];
  timeDeltas: number[];
}

function placeOf(url: string, fn: string): string {
  if (!url) {
    if (fn === '(garbage collector)') return 'garbage collector';
    if (fn === 'writev' || fn === 'writeUtf8String' || fn === 'writeBuffer') return 'socket writes (native)';
    return 'V8 / native';
  }
  if (url.includes('packages/backend/')) return 'backend (our code)';
  if (url.includes('bench/')) return 'bench harness';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (/node:_http|node:http/.test(url)) return 'node http';
  if (/node:internal\/(streams|stream_base)|node:net/.test(url)) return 'node streams & net';
  if (/undici|webstreams/.test(url)) return 'node fetch/web streams (undici)';
  return 'node (other)';
}

const labelOf = (frame: CpuProfile['nodes'][number]['callFrame']) =>
  `${frame.functionName || '(anonymous)'} ${frame.url.replace(/.*node_modules\//, '').replace(/.*\/(packages|bench)\//, '$1/')}:${frame.lineNumber + 1}`;

/** A profile's nodes by id, and each node's parent: for walking a sample's stack upwards. */
function indexed(profile: CpuProfile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  return { nodes, parent };
}

export function summarize(
  profile: CpuProfile,
): Omit<ProfileResult, 'route' | 'durationS' | 'connections' | 'requestsPerSecond'> {
  const { nodes, parent } = indexed(profile);
  const selfById = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    selfById.set(id, (selfById.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  let idle = 0;
  let busy = 0;
  const byPlace = new Map<string, number>();
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, time] of selfById) {
    const node = nodes.get(id);
    if (!node) continue;
    const { functionName, url } = node.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') {
      idle += time;
      continue;
    }
    busy += time;
    const place = placeOf(url, functionName);
    byPlace.set(place, (byPlace.get(place) ?? 0) + time);
    const label = labelOf(node.callFrame);
    self.set(label, (self.get(label) ?? 0) + time);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = nodes.get(at)?.callFrame;
      if (!frame || !/packages\/backend|node_modules\/(hono|@hono|hono-rate-limiter|zod)\//.test(frame.url))
        continue;
      const name = labelOf(frame);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + time);
    }
  }
  const shares = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, time]) => [key, round((time / busy) * 100) / 100] as const);
  return {
    busyS: round(busy / 1e6),
    idleShare: round(idle / (idle + busy)),
    byPlace: shares(byPlace, 14).map(([place, share]) => ({ place, share })),
    topSelf: shares(self, 15).map(([fn, share]) => ({ fn, share })),
    topInclusive: shares(inclusive, 15).map(([fn, share]) => ({ fn, share })),
  };
}

/** Code that is there only to observe: the metrics, the logs (ours and the libraries under them). */
const observing =
  /node_modules\/(prom-client|bintrees|tdigest|pino|pino-std-serializers|sonic-boom|thread-stream|fast-redact|quick-format-unescaped|atomic-sleep|on-exit-leak-free|@pinojs\/redact)\/|backend\/(dist|src)\/(logger|metrics\/[^/]+|middleware\/access-log|middleware\/route-template)\.[jt]s/;

/**
 * The share of the busy samples spent observing: a sample counts when, going up its stack from the running
 * function, observing code (above) comes before any other code of the app or its libraries. Node's own frames
 * (a stream's write, `performance.now`) are counted for whichever of the two called them; the access-log
 * middleware's `await next()` leads into the app's code, so the request's own work is never counted. Not
 * attributable: the garbage collector's share of what observing allocates.
 */
export function observingShare(
  profile: CpuProfile,
  /** Samples in the first seconds of the process (its start, a warm-up) are left out. */
  skipS = 0,
): { busyS: number; share: number; gcShare: number } {
  const { nodes, parent } = indexed(profile);
  const verdict = new Map<number, boolean>();
  const observes = (id: number): boolean => {
    const known = verdict.get(id);
    if (known !== undefined) return known;
    const url = nodes.get(id)?.callFrame.url ?? '';
    const up = parent.get(id);
    const answer = observing.test(url)
      ? true
      : url.includes('node_modules/') || /packages\/|bench\//.test(url)
        ? false
        : up !== undefined && observes(up);
    verdict.set(id, answer);
    return answer;
  };
  let busy = 0;
  let observed = 0;
  let gc = 0;
  let at = 0;
  profile.samples.forEach((id, index) => {
    const time = profile.timeDeltas[index] ?? 0;
    at += time;
    if (at < skipS * 1e6) return;
    const fn = nodes.get(id)?.callFrame.functionName;
    if (fn === '(idle)' || fn === '(program)') return;
    busy += time;
    if (fn === '(garbage collector)') gc += time;
    else if (observes(id)) observed += time;
  });
  const fraction = (part: number) => Math.round((part / Math.max(1, busy)) * 1e4) / 1e4;
  return { busyS: round(busy / 1e6), share: fraction(observed), gcShare: fraction(gc) };
}

/** A profile written by `node --cpu-prof` into `dir`. */
export function readProfile(dir: string): CpuProfile {
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error('node --cpu-prof wrote no profile');
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
}

/** A POST to profile instead of a GET: its path, and the body of each request. */
export interface ProfiledPost {
  path: string;
  body: () => string;
  /** Called with the backend's URL before the profiled load (e.g. to find combinations it prices). */
  prepare?: (backendUrl: string) => Promise<void>;
}

export async function profileRoute(
  sandboxUrl: string,
  route = '/api/catalog?country=DE',
  durationS = 6,
  post?: ProfiledPost,
): Promise<ProfileResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-cpu-prof-'));
  const backend = await startServer('backend', { BENCH_SANDBOX_URL: sandboxUrl }, [
    '--cpu-prof',
    `--cpu-prof-dir=${dir}`,
  ]);
  const connections = 10;
  try {
    await post?.prepare?.(backend.url);
    const requests: RequestSpec[] | undefined = post && [
      {
        method: 'POST',
        path: post.path,
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: post.body() }),
      },
    ];
    const blast = (seconds: number) =>
      new Promise<Result>((resolve, reject) =>
        autocannon(
          {
            url: `${backend.url}${route}`,
            duration: seconds,
            connections,
            ...(requests ? { requests } : {}),
          },
          (error, result) => (error ? reject(error) : resolve(result)),
        ),
      );
    await blast(1); // the catalog cached, the JIT warm
    const result = await blast(durationS);
    await backend.stop();
    const profile = readProfile(dir);
    return {
      route,
      durationS,
      connections,
      requestsPerSecond: round(result.requests.average),
      ...summarize(profile),
    };
  } finally {
    await backend.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
