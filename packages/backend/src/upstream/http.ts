/**
 * The one way this backend talks to an upstream API: a timeout per call, jittered retries for reads and
 * quotes only, the shared budget, tolerant parsing of whatever comes back (JSON envelopes, an HTML Cloudflare
 * challenge, a cut-off body), every body parsed with the caller's zod schema, and errors already shaped as
 * our envelope codes. Query strings and bodies are never logged: they carry the public key, and callers may
 * put secrets in headers.
 */
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { logger } from '../logger.ts';
import type { Budget } from './budget.ts';

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
  log?: (line: string) => void;
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
    super('UPSTREAM_ERROR', 'The payment provider refused the request.');
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
  const name = options.name;

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
  ): Promise<T> {
    // Each attempt holds its own token until its answer is in (or it failed): the budget counts a token as
    // spent until one window after that, which is what keeps the upstream's arrival count under the budget.
    const release = await options.budget?.acquire(call.signal);
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
        log(`[upstream ${name}] ${method} ${path} timed out after ${options.timeoutMs} ms`);
        throw new AppError(
          'UPSTREAM_TIMEOUT',
          'The payment provider did not answer in time; please try again.',
        );
      }
      if (call.signal?.aborted) throw error;
      log(`[upstream ${name}] ${method} ${path} failed: ${(error as Error).name}`);
      throw new Retryable(upstreamError('could not be reached'));
    } finally {
      release?.();
    }

    if (status === 429) {
      options.budget?.noteThrottled();
      const seconds = Number(retryAfterHeader);
      log(`[upstream ${name}] ${method} ${path} → 429 (throttled by the upstream)`);
      throw new AppError('UPSTREAM_BUSY', 'The payment provider is busy right now; try again shortly.', {
        retryAfter: Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 1,
      });
    }
    if (isChallenge(status, text)) {
      log(`[upstream ${name}] ${method} ${path} → ${status} bot-protection challenge page`);
      throw upstreamError('is behind a bot-protection challenge');
    }
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      log(`[upstream ${name}] ${method} ${path} → ${status} unreadable body (${text.length} bytes)`);
      const error = upstreamError('answered something unreadable');
      if (status >= 500 || status < 300) throw new Retryable(error);
      throw error;
    }
    const failure = failureBody.safeParse(json);
    if (failure.success || status >= 400) {
      const message = failure.success
        ? messageOf(failure.data.message) || messageOf(failure.data.error)
        : (errorLikeBody.safeParse(json).data?.message ?? '');
      log(`[upstream ${name}] ${method} ${path} → ${status} refused`);
      const refusal = new UpstreamRefusal(name, status, message);
      if (status >= 500) throw new Retryable(refusal);
      throw refusal;
    }
    if (status >= 300) {
      log(`[upstream ${name}] ${method} ${path} → ${status} unexpected status`);
      throw upstreamError(`answered an unexpected status (${status})`);
    }
    const parsed = call.schema.safeParse(json);
    if (!parsed.success) {
      const where = parsed.error.issues
        .slice(0, 3)
        .map((issue) => issue.path.join('.') || '(root)')
        .join(', ');
      log(`[upstream ${name}] ${method} ${path} → ${status} unexpected shape at ${where}`);
      throw upstreamError('answered in an unexpected shape');
    }
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
        return await attempt(method, path, url, payload, call);
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
