/**
 * The one way this backend talks to an upstream API: a timeout per call, jittered retries for reads and
 * quotes only, the shared budget, tolerant parsing of whatever comes back (JSON envelopes, an HTML Cloudflare
 * challenge, a cut-off body), every body parsed with the caller's zod schema, and errors already shaped as
 * our envelope codes. Query strings and bodies are never logged: they carry the public key, and callers may
 * put secrets in headers.
 *
 * Each attempt is told to `observe` (the metrics) with its outcome and time; each failure is logged with its
 * cause: the network error's kind and code (refused, DNS, TLS, reset, timeout), the HTTP status and the upstream's
 * own message when it sent one, the endpoint and the attempt number.
 */
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { type LogFields, logger } from '../logger.ts';
import type { Budget } from './budget.ts';

/** How one attempt ended, as the metrics label it: bounded. */
export type UpstreamOutcome = 'ok' | '4xx' | '429' | '5xx' | 'timeout' | 'network' | 'invalid';

/** Told of every attempt: which upstream, which path (never its query), how it ended, how long it took. */
export type UpstreamObserver = (
  service: string,
  endpoint: string,
  outcome: UpstreamOutcome,
  seconds: number,
) => void;

/** Why a call never got an HTTP answer. */
export type NetworkCause = 'refused' | 'dns' | 'tls' | 'reset' | 'timeout' | 'network';

/** The kind and code of a failed fetch: undici wraps the socket's error (`ECONNREFUSED`, …) as its `cause`. */
export function networkCause(error: unknown): { cause: NetworkCause; code: string | undefined } {
  let code: string | undefined;
  for (let at: unknown = error, depth = 0; at && depth < 4; depth += 1) {
    const own = (at as { code?: unknown }).code;
    if (typeof own === 'string') {
      code = own;
      break;
    }
    at = (at as { cause?: unknown }).cause;
  }
  if (!code) return { cause: 'network', code };
  if (code === 'ECONNREFUSED') return { cause: 'refused', code };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return { cause: 'dns', code };
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code)) return { cause: 'tls', code };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET') return { cause: 'reset', code };
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return { cause: 'timeout', code };
  return { cause: 'network', code };
}

const causeWords: Record<NetworkCause, string> = {
  refused: 'connection refused',
  dns: 'host name not found (DNS)',
  tls: 'TLS failed',
  reset: 'connection reset',
  timeout: 'connect timed out',
  network: 'network error',
};

/** The upstream could not be reached: no HTTP answer. Leaves as 502 UPSTREAM_ERROR; `cause` is for logs and /readyz. */
export class UpstreamUnreachable extends AppError {
  constructor(
    readonly upstream: string,
    readonly networkCause: NetworkCause,
    readonly networkCode: string | undefined,
  ) {
    super(
      'UPSTREAM_ERROR',
      'The payment service is temporarily unavailable (it cannot be reached); please try again in a few minutes.',
    );
    this.name = 'UpstreamUnreachable';
  }

  /** `connection refused (ECONNREFUSED)` */
  get reason(): string {
    return `${causeWords[this.networkCause]}${this.networkCode ? ` (${this.networkCode})` : ''}`;
  }
}

export type QueryValue = string | number | boolean | undefined | null;

export interface UpstreamHttpOptions {
  /** Names the upstream in logs and messages, e.g. `ramp`, `payments`. */
  name: string;
  baseUrl: string;
  /** Per attempt; a timeout is not retried (a slow upstream would only get slower and the shopper waits). */
  timeoutMs: number;
  /** When given, every attempt takes a token from it first and gives it back once its answer is in. */
  budget?: Budget | undefined;
  /** Sent with every request (e.g. `X-API-Key`); never logged. */
  headers?: Record<string, string>;
  /** Extra attempts for `retry: true` calls (default 2, so 3 attempts at most). */
  retries?: number;
  /** Base of the exponential backoff; each wait is a random fraction of base × 2^attempt ("full jitter"). */
  backoffMs?: number;
  fetch?: typeof fetch;
  random?: () => number;
  log?: (line: string, fields?: LogFields) => void;
  observe?: UpstreamObserver | undefined;
}

export interface CallOptions<T> {
  /** Parses the whole JSON body; use `rampEnvelope`/`payEnvelope`-style wrappers to unwrap `data`. */
  schema: z.ZodType<T>;
  /** Retry transient failures (network error, 5xx, unreadable body). Only for reads and quotes. */
  retry?: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface GetOptions<T> extends CallOptions<T> {
  query?: Record<string, QueryValue>;
}

export interface PostOptions<T> extends CallOptions<T> {
  body: unknown;
  query?: Record<string, QueryValue>;
}

export interface UpstreamHttp {
  get<T>(path: string, options: GetOptions<T>): Promise<T>;
  post<T>(path: string, options: PostOptions<T>): Promise<T>;
}

/**
 * The upstream answered in its own envelope with `success: false` (or a 4xx with a readable body). It leaves
 * as 502 UPSTREAM_ERROR unless the caller maps it (a pricing refusal → QUOTE_UNAVAILABLE, a limit → 422).
 * `upstreamMessage` is for mapping and logs, never for the client.
 */
export class UpstreamRefusal extends AppError {
  constructor(
    readonly upstream: string,
    readonly upstreamStatus: number,
    readonly upstreamMessage: string,
  ) {
    // A 5xx is the provider failing (an outage), not a refusal of what we asked: the shopper is told so.
    super(
      'UPSTREAM_ERROR',
      upstreamStatus >= 500
        ? 'The payment service is temporarily unavailable; please try again in a few minutes.'
        : 'The payment provider refused the request.',
    );
    this.name = 'UpstreamRefusal';
  }
}

/** A 400/422 refusal: the upstream rejected the values we sent (the caller maps it to VALIDATION_FAILED). */
export const isValueRefusal = (error: unknown): error is UpstreamRefusal =>
  error instanceof UpstreamRefusal && (error.upstreamStatus === 400 || error.upstreamStatus === 422);

/** What an upstream's refusal message says, as far as we can recognise it. */
export function refusalKind(message: string): 'amount_too_low' | 'amount_too_high' | 'other' {
  const text = message.toLowerCase();
  if (/(too low|too small|below (the )?min|minimum|min_amount)/.test(text)) return 'amount_too_low';
  if (/(too high|too large|above (the )?max|exceeds|maximum|max_amount)/.test(text)) return 'amount_too_high';
  return 'other';
}

/** Lenient `{success, data, message?}` envelope: returns `data`; unknown fields pass. */
export function envelope<T>(data: z.ZodType<T>) {
  return z
    .looseObject({ success: z.boolean().optional(), data, message: z.string().nullish() })
    .transform((body) => body.data);
}

const failureBody = z.looseObject({
  success: z.literal(false),
  message: z.unknown().optional(),
  error: z.unknown().optional(),
});

const errorLikeBody = z.looseObject({ message: z.string() });

class Retryable extends Error {
  constructor(
    readonly final: AppError,
    readonly retryAfterMs?: number,
  ) {
    super(final.message);
  }
}

function isChallenge(status: number, text: string): boolean {
  return text.includes('cdn-cgi/challenge-platform') || (status === 403 && /^\s*</.test(text));
}

function messageOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'message' in value && typeof value.message === 'string') {
    return value.message;
  }
  return '';
}

export function createUpstreamHttp(options: UpstreamHttpOptions): UpstreamHttp {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const retries = options.retries ?? 2;
  const backoffMs = options.backoffMs ?? 150;
  const doFetch = options.fetch ?? fetch;
  const random = options.random ?? Math.random;
  const log = options.log ?? logger.warn;
  const observe = options.observe;
  const name = options.name;
  /** The upstream's own message, cut short (it is the upstream's text, not ours). */
  const short = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

  const upstreamError = (message: string) =>
    new AppError('UPSTREAM_ERROR', `The payment provider ${message}; please try again.`);

  function buildUrl(path: string, query: Record<string, QueryValue> | undefined): string {
    const url = new URL(baseUrl + (path.startsWith('/') ? path : `/${path}`));
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  async function attempt<T>(
    method: 'GET' | 'POST',
    path: string,
    url: string,
    body: string | undefined,
    call: CallOptions<T>,
    attemptNo: number,
    attempts: number,
  ): Promise<T> {
    const where = { upstream: name, method, endpoint: path, attempt: attemptNo, attempts };
    const failed = (line: string, fields: LogFields) =>
      log(`upstream ${name} ${method} ${path} ${line} (attempt ${attemptNo} of ${attempts})`, {
        ...where,
        ...fields,
      });
    // Each attempt holds its own token until its answer is in (or it failed): the budget counts a token as
    // spent until one window after that, which is what keeps the upstream's arrival count under the budget.
    const release = await options.budget?.acquire(call.signal);
    const started = performance.now();
    const seen = (outcome: UpstreamOutcome) =>
      observe?.(name, path, outcome, (performance.now() - started) / 1000);
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    let status: number;
    let text: string;
    let retryAfterHeader: string | null;
    try {
      const response = await doFetch(url, {
        method,
        headers: {
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
          ...call.headers,
        },
        body,
        signal,
        redirect: 'manual',
      });
      status = response.status;
      retryAfterHeader = response.headers.get('retry-after');
      text = await response.text();
    } catch (error) {
      if (timeout.aborted) {
        seen('timeout');
        failed(`timed out after ${options.timeoutMs} ms`, { cause: 'timeout', timeoutMs: options.timeoutMs });
        throw new AppError(
          'UPSTREAM_TIMEOUT',
          'The payment provider did not answer in time; please try again.',
        );
      }
      if (call.signal?.aborted) throw error;
      seen('network');
      const { cause, code } = networkCause(error);
      const unreachable = new UpstreamUnreachable(name, cause, code);
      failed(`failed: ${unreachable.reason}`, {
        cause: unreachable.networkCause,
        code: unreachable.networkCode,
      });
      throw new Retryable(unreachable);
    } finally {
      release?.();
    }

    const outcome: UpstreamOutcome =
      status === 429
        ? '429'
        : status >= 500
          ? '5xx'
          : status >= 400
            ? '4xx'
            : status >= 300
              ? 'invalid'
              : 'ok';
    if (status === 429) {
      seen(outcome);
      options.budget?.noteThrottled();
      const seconds = Number(retryAfterHeader);
      failed('→ 429 (throttled by the upstream)', { status, retryAfter: retryAfterHeader });
      throw new AppError('UPSTREAM_BUSY', 'The payment provider is busy right now; try again shortly.', {
        retryAfter: Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 1,
      });
    }
    if (isChallenge(status, text)) {
      seen(outcome === 'ok' ? 'invalid' : outcome);
      failed(`→ ${status} bot-protection challenge page`, { status });
      throw upstreamError('is behind a bot-protection challenge');
    }
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      seen(outcome === 'ok' ? 'invalid' : outcome);
      failed(`→ ${status} unreadable body (${text.length} bytes)`, { status, bytes: text.length });
      const error = upstreamError('answered something unreadable');
      if (status >= 500 || status < 300) throw new Retryable(error);
      throw error;
    }
    const failure = failureBody.safeParse(json);
    if (failure.success || status >= 400) {
      const message = failure.success
        ? messageOf(failure.data.message) || messageOf(failure.data.error)
        : (errorLikeBody.safeParse(json).data?.message ?? '');
      seen(outcome === 'ok' ? '4xx' : outcome);
      failed(`→ ${status} refused${message ? `: ${short(message)}` : ''}`, {
        status,
        upstreamMessage: short(message),
      });
      const refusal = new UpstreamRefusal(name, status, message);
      if (status >= 500) throw new Retryable(refusal);
      throw refusal;
    }
    if (status >= 300) {
      seen(outcome);
      failed(`→ ${status} unexpected status`, { status });
      throw upstreamError(`answered an unexpected status (${status})`);
    }
    const parsed = call.schema.safeParse(json);
    if (!parsed.success) {
      const at = parsed.error.issues
        .slice(0, 3)
        .map((issue) => issue.path.join('.') || '(root)')
        .join(', ');
      seen('invalid');
      failed(`→ ${status} unexpected shape at ${at}`, { status, at });
      throw upstreamError('answered in an unexpected shape');
    }
    seen('ok');
    return parsed.data;
  }

  async function request<T>(
    method: 'GET' | 'POST',
    path: string,
    query: Record<string, QueryValue> | undefined,
    body: unknown,
    call: CallOptions<T>,
  ): Promise<T> {
    const url = buildUrl(path, query);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const attempts = call.retry ? retries + 1 : 1;
    for (let index = 0; ; index += 1) {
      try {
        return await attempt(method, path, url, payload, call, index + 1, attempts);
      } catch (error) {
        if (!(error instanceof Retryable)) throw error;
        if (index + 1 >= attempts) throw error.final;
        const wait = random() * backoffMs * 2 ** index;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  return {
    get: (path, call) => request('GET', path, call.query, undefined, call),
    post: (path, call) => request('POST', path, call.query, call.body, call),
  };
}
