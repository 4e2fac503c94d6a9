/** A tiny fetch client for the backend: typed answers, the error envelope turned into an ApiError. */
import type {
  BackendErrorCode,
  Catalog,
  DepositAddress,
  Order,
  OrderBody,
  OrderView,
  Product,
  Quote,
  QuoteBody,
  RampSession,
  RampSessionBody,
  Side,
  VerifiedToken,
} from './types.ts';

/** Every code a `checkout-error` can carry: the backend's table plus the widget's own. */
export type ErrorCode = BackendErrorCode | 'NETWORK_ERROR' | 'INTEGRITY' | 'ORIGIN_NOT_ALLOWED';

/** The codes for which sending the same request again may succeed. */
export const RETRYABLE =
  /^(RATE_LIMITED|UPSTREAM_|QUOTE_UNAVAILABLE|SERVICE_UNAVAILABLE|INTERNAL|NETWORK_ERROR)/;

export interface LimitDetails {
  min?: string;
  max?: string;
  currency?: string;
}

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message = '',
    readonly status = 0,
    readonly details?: LimitDetails,
  ) {
    super(message);
  }

  /** Whether sending the same request again may succeed. */
  get retryable(): boolean {
    return RETRYABLE.test(this.code);
  }
}

/** The error a failed call turns into: the backend's code, or INTERNAL for anything else. */
export const toApiError = (e: unknown): ApiError =>
  e instanceof ApiError ? e : new ApiError('INTERNAL', String(e));

export const isAbort = (e: unknown): boolean => e instanceof DOMException && e.name === 'AbortError';

interface Envelope {
  error?: { code?: string; message?: string; details?: LimitDetails };
}

async function call<T>(
  api: string,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
  headers: Record<string, string> = {},
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(api.replace(/\/+$/, '') + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    });
  } catch (e) {
    if (isAbort(e)) throw e;
    throw new ApiError('NETWORK_ERROR', String(e));
  }
  const json = (await res.json().catch(() => null)) as (T & Envelope) | null;
  if (res.ok && json) return json;
  const err = json?.error;
  let code = (err?.code ?? (res.status === 404 ? 'NOT_FOUND' : 'INTERNAL')) as ErrorCode;
  // A public route refuses only a page whose origin the backend does not list (its 403 is readable for that).
  if (code === 'FORBIDDEN') {
    code = 'ORIGIN_NOT_ALLOWED';
    console.error(
      `crypto-checkout: ${api} refuses this page's origin, ${location.origin}: add it to the backend's ALLOWED_ORIGINS`,
    );
  }
  throw new ApiError(code, err?.message ?? res.statusText, res.status, err?.details);
}

const q = encodeURIComponent;

export const getCatalog = (api: string, country: string, signal?: AbortSignal) =>
  call<Catalog>(api, `/catalog${country ? `?country=${q(country)}` : ''}`, undefined, signal);

export const getProduct = (api: string, id: string, signal?: AbortSignal) =>
  call<Product>(api, `/products/${q(id)}`, undefined, signal);

export const verifyToken = (api: string, token: string, signal?: AbortSignal) =>
  call<VerifiedToken>(api, '/checkout-tokens/verify', { token }, signal);

export const getQuote = (api: string, side: Side, body: QuoteBody, signal?: AbortSignal) =>
  call<Quote>(api, `/quotes/${side}`, body, signal);

export const createOrder = (api: string, body: OrderBody, key: string) =>
  call<Order>(api, '/orders', body, undefined, { 'idempotency-key': key });

export const getOrder = (api: string, id: string, token: string, signal?: AbortSignal) =>
  call<OrderView>(api, `/orders/${q(id)}`, undefined, signal, { 'x-status-token': token });

export const orderEventsUrl = (api: string, id: string, token: string) =>
  `${api.replace(/\/+$/, '')}/orders/${q(id)}/events?token=${q(token)}`;

export const createRampSession = (api: string, body: RampSessionBody) =>
  call<RampSession>(api, '/ramp-sessions', body);

export const createDepositAddress = (
  api: string,
  customerToken: string,
  chain: string,
  signal?: AbortSignal,
) => call<DepositAddress>(api, '/deposit-addresses', { customerToken, chain }, signal);
