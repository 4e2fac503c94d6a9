/**
 * Readiness: whether this instance can serve shoppers now, check by check. `run()` runs every check once and
 * returns each one's status, latency and last error, with what the instance runs on (storage kind, host and
 * database, never a password; the Redis host; the upstream mode and base URLs). `GET /readyz` answers it (503 when
 * a required check fails), `/metrics` reports it, and a command line can print it.
 *
 * Required are the checks of this instance's own means (storage, Redis, its worker, not draining): a load balancer
 * takes the instance out when one fails, and another instance may serve. The upstream is not required: every
 * instance sees the same upstream, so taking them out for it only turns what they can still serve (the catalog,
 * cached and derived quotes, status streams) into "no server is available". A failing check that is not required
 * is named in `degraded`, and the instance stays ready.
 *
 * The checks:
 * - `storage`: a real query (a primary-key read) against the store;
 * - `redis` (with REDIS_URL): PING; required unless REDIS_FALLBACK_INSTANCES lets the instance run without it;
 * - `upstreamRamp`, `upstreamPayments` (not required): an authenticated call to each API with the configured keys,
 *   at most one every 30 s per instance, each taking a token of the shared upstream budget; between probes the
 *   last result is answered (with its age);
 * - `outboxWorker`: the delivery worker of this process has finished a pass recently (skipped where no worker
 *   runs, as in an app built with `createApp` alone);
 * - `warmStart`: the instance has finished warming up (quotes/warm-start/warm-start.ts: the references shared
 *   through Redis adopted, or the busiest combinations primed); skipped where nothing warms up;
 * - `shutdown`: the instance has not been marked as draining (`markDraining`, on the way to a graceful stop).
 */

import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import type { SharedState } from '../shared/redis.ts';
import type { Store } from '../store/store.ts';
import type { Budget } from '../upstream/budget.ts';
import type { UpstreamObserver } from '../upstream/http.ts';
import { probeFailure, probeRedis, probeStorage, upstreamProbes } from './dependencies.ts';
import { describeEnvironment, type Environment } from './environment.ts';

export type CheckName =
  | 'storage'
  | 'redis'
  | 'upstreamRamp'
  | 'upstreamPayments'
  | 'outboxWorker'
  | 'warmStart'
  | 'shutdown';

export interface CheckResult {
  /** `skipped`: not applicable here (no Redis configured, no worker in this process). */
  status: 'ok' | 'failing' | 'skipped';
  /** A failing required check makes the instance not ready (503); one not required makes it `degraded`. */
  required: boolean;
  /** How long this check took (for the upstream: the probe the result comes from). */
  latencyMs: number | null;
  /** The most recent failure of this check, kept after it recovers, and when it was seen. */
  lastError: { message: string; at: string } | null;
  /** What was checked, or why it was not. */
  detail?: string;
  /** Upstream checks: when the probe answered was made, and how old it is. */
  checkedAt?: string;
  ageMs?: number;
}

export interface ReadinessReport extends Environment {
  ready: boolean;
  /** The failing required checks, by name. */
  failing: CheckName[];
  /** The failing checks that are not required (the upstream; Redis with a fallback): served, with less. */
  degraded: CheckName[];
  instance: string;
  checks: Record<CheckName, CheckResult>;
}

/** What the delivery worker tells of itself (events/delivery-worker.ts). */
export interface WorkerLiveness {
  running: boolean;
  /** `performance.now()` when the last pass ended (or the worker started), and when the running one began. */
  lastPassEndedAt: number;
  passStartedAt: number | undefined;
}

export interface ReadinessDeps {
  config: Config;
  store: Store;
  shared?: SharedState | undefined;
  /** The shared upstream budget: every probe takes a token. */
  budget: Budget;
  clock: Clock;
  observe?: UpstreamObserver | undefined;
  /** Test seam for the probes. */
  fetch?: typeof fetch;
}

export interface ReadinessOptions {
  /** At most one probe of each upstream per this (default 30 s). */
  upstreamEveryMs?: number;
  /** How long a storage or Redis check may take before it counts as failing (default 3 s). */
  checkTimeoutMs?: number;
  /**
   * How long `run` waits for the first upstream probe's answer (default 3 s). Once a probe has answered, a due probe
   * runs in the background and `run` answers the last result at once: a probe waiting on a busy shared budget or
   * a slow upstream never holds a load balancer's health check past its timeout.
   */
  probeWaitMs?: number;
  /** A worker whose last pass ended longer ago than this (and none running) is not alive (default 60 s). */
  workerStaleMs?: number;
}

export interface ReadinessChecks {
  /** Runs every check once (the upstream ones from their cache unless due) and reports. */
  run(): Promise<ReadinessReport>;
  /** What the instance runs on (for the banner and the log line at start). */
  environment(): Environment;
  /** Marks the instance as shutting down: `/readyz` answers 503 from now on, so balancers stop sending. */
  markDraining(): void;
  draining(): boolean;
  /** The delivery worker to watch (createRuntime starts one). */
  watchWorker(worker: { liveness(): WorkerLiveness }): void;
  /** The warm start to wait for (createRuntime starts one): not ready until it is done. */
  watchWarmStart(warming: { done(): boolean; detail(): string }): void;
}

/** A failure as /readyz words it: `unreachable: connection refused (ECONNREFUSED)`, `the credentials were refused (401: …)`. */
const errorMessage = (error: unknown): string => {
  const failure = probeFailure(error);
  const said = failure.message ? `: ${failure.message}` : '';
  if (failure.kind === 'unreachable') return `unreachable: ${failure.message}`;
  if (failure.kind === 'refused') return `the credentials were refused (${failure.status}${said})`;
  return failure.status !== undefined ? `answered ${failure.status}${said}` : failure.message;
};

class CheckTimeout extends Error {}

function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CheckTimeout(`${what} did not answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** The cached result of one upstream's probe. */
interface Probe {
  name: 'upstreamRamp' | 'upstreamPayments';
  call: () => Promise<unknown>;
  result: CheckResult | undefined;
  /** `clock.now()` of the last probe started. */
  startedAt: number;
  running: Promise<void> | undefined;
}

export function createReadinessChecks(deps: ReadinessDeps, options: ReadinessOptions = {}): ReadinessChecks {
  const { config, store, shared, clock } = deps;
  const upstreamEveryMs = options.upstreamEveryMs ?? 30_000;
  const checkTimeoutMs = options.checkTimeoutMs ?? 3000;
  const probeWaitMs = options.probeWaitMs ?? 3000;
  const workerStaleMs = options.workerStaleMs ?? 60_000;
  const environment = describeEnvironment(config, store);
  const lastErrors = new Map<CheckName, CheckResult['lastError']>();
  let isDraining = false;
  let worker: { liveness(): WorkerLiveness } | undefined;

  const iso = (ms = clock.now()) => new Date(ms).toISOString();
  const failing = (
    name: CheckName,
    required: boolean,
    message: string,
    latencyMs: number | null,
  ): CheckResult => {
    const lastError = { message, at: iso() };
    lastErrors.set(name, lastError);
    return { status: 'failing', required, latencyMs, lastError };
  };
  const ok = (
    name: CheckName,
    required: boolean,
    latencyMs: number | null,
    detail?: string,
  ): CheckResult => ({
    status: 'ok',
    required,
    latencyMs,
    lastError: lastErrors.get(name) ?? null,
    ...(detail ? { detail } : {}),
  });
  const timed = async (name: CheckName, required: boolean, work: () => Promise<unknown>, detail: string) => {
    const started = performance.now();
    const ms = () => Math.round((performance.now() - started) * 10) / 10;
    try {
      await within(work(), checkTimeoutMs, name);
      return ok(name, required, ms(), detail);
    } catch (error) {
      return failing(name, required, errorMessage(error), ms());
    }
  };

  // The probes (checks/dependencies.ts, as `check` runs them), each within the shared upstream budget.
  const upstream = upstreamProbes(config, {
    budget: deps.budget,
    observe: deps.observe,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
  const probes: Probe[] = [
    {
      name: 'upstreamRamp',
      call: upstream.ramp,
      result: undefined,
      startedAt: Number.NEGATIVE_INFINITY,
      running: undefined,
    },
    {
      name: 'upstreamPayments',
      call: upstream.payments,
      result: undefined,
      startedAt: Number.NEGATIVE_INFINITY,
      running: undefined,
    },
  ];

  const probe = (entry: Probe): Promise<void> => {
    entry.startedAt = clock.now();
    const started = performance.now();
    const at = iso();
    entry.running = entry
      .call()
      .then(
        () => {
          entry.result = { ...ok(entry.name, false, null), checkedAt: at };
        },
        (error: unknown) => {
          // Our budget spent, or the upstream throttling us: it answers, and the keys were not refused. The shared
          // budget unreachable (Redis down, no fallback): no call was made, so the next run probes again. Either
          // way the last result stands (Redis has its own check).
          if (
            error instanceof AppError &&
            (error.code === 'UPSTREAM_BUSY' || error.code === 'SERVICE_UNAVAILABLE')
          ) {
            if (error.code === 'SERVICE_UNAVAILABLE') entry.startedAt = Number.NEGATIVE_INFINITY;
            entry.result ??= {
              ...ok(entry.name, false, null, 'busy: the keys were not checked yet'),
              checkedAt: at,
            };
            return;
          }
          entry.result = { ...failing(entry.name, false, errorMessage(error), null), checkedAt: at };
        },
      )
      .then(() => {
        (entry.result as CheckResult).latencyMs = Math.round((performance.now() - started) * 10) / 10;
        entry.running = undefined;
      });
    return entry.running;
  };

  const upstreamCheck = async (entry: Probe): Promise<CheckResult> => {
    if (!entry.running && clock.now() - entry.startedAt >= upstreamEveryMs) void probe(entry);
    if (entry.running && !entry.result) {
      await within(entry.running, probeWaitMs, entry.name).catch(() => undefined);
    }
    const result = entry.result;
    if (!result) {
      return {
        status: 'failing',
        required: false,
        latencyMs: null,
        lastError: null,
        detail: `the first probe has not answered within ${probeWaitMs} ms`,
      };
    }
    const ageMs = result.checkedAt ? Math.max(0, clock.now() - Date.parse(result.checkedAt)) : 0;
    return { ...result, lastError: lastErrors.get(entry.name) ?? null, ageMs };
  };

  const workerCheck = (): CheckResult => {
    if (!worker)
      return {
        status: 'skipped',
        required: false,
        latencyMs: null,
        lastError: null,
        detail: 'no delivery worker runs in this process',
      };
    const { running, lastPassEndedAt, passStartedAt } = worker.liveness();
    const now = performance.now();
    if (!running) return failing('outboxWorker', true, 'the delivery worker is stopped', null);
    if (
      passStartedAt === undefined
        ? now - lastPassEndedAt > workerStaleMs
        : now - passStartedAt > workerStaleMs
    ) {
      return failing(
        'outboxWorker',
        true,
        `the delivery worker has not finished a pass for ${Math.round((now - lastPassEndedAt) / 1000)} s`,
        null,
      );
    }
    return ok('outboxWorker', true, null, `last pass ended ${Math.round(now - lastPassEndedAt)} ms ago`);
  };

  let warming: { done(): boolean; detail(): string } | undefined;
  const warmStartCheck = (): CheckResult => {
    if (!warming)
      return {
        status: 'skipped',
        required: false,
        latencyMs: null,
        lastError: null,
        detail: 'nothing warms up in this process',
      };
    return warming.done()
      ? ok('warmStart', true, null, warming.detail())
      : { status: 'failing', required: true, latencyMs: null, lastError: null, detail: warming.detail() };
  };

  const redisRequired = shared !== undefined && shared.fallbackInstances === undefined;

  return {
    environment: () => environment,
    markDraining() {
      isDraining = true;
    },
    draining: () => isDraining,
    watchWorker(watched) {
      worker = watched;
    },
    watchWarmStart(watched) {
      warming = watched;
    },
    async run() {
      const [storage, redis, upstreamRamp, upstreamPayments] = await Promise.all([
        timed('storage', true, () => probeStorage(store), 'a primary-key read'),
        shared
          ? timed(
              'redis',
              redisRequired,
              // In one sentence naming its host (ioredis's own words say only "Stream isn't writeable…").
              () =>
                probeRedis(shared.redis).catch((error: unknown) => {
                  throw new Error(shared.problem(error));
                }),
              redisRequired ? 'PING' : 'PING (not required: REDIS_FALLBACK_INSTANCES is set)',
            )
          : Promise.resolve<CheckResult>({
              status: 'skipped',
              required: false,
              latencyMs: null,
              lastError: null,
              detail: 'REDIS_URL is not set',
            }),
        upstreamCheck(probes[0] as Probe),
        upstreamCheck(probes[1] as Probe),
      ]);
      const checks: Record<CheckName, CheckResult> = {
        storage,
        redis,
        upstreamRamp,
        upstreamPayments,
        outboxWorker: workerCheck(),
        warmStart: warmStartCheck(),
        shutdown: isDraining
          ? failing('shutdown', true, 'the instance is shutting down', null)
          : ok('shutdown', true, null),
      };
      const failed = (Object.keys(checks) as CheckName[]).filter((name) => checks[name].status === 'failing');
      const failingNames = failed.filter((name) => checks[name].required);
      return {
        ready: failingNames.length === 0,
        failing: failingNames,
        degraded: failed.filter((name) => !checks[name].required),
        instance: config.observability.instance,
        ...environment,
        checks,
      };
    },
  };
}
