/** The one error envelope `{error:{code, message, requestId}}` and the documented list of codes. */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { logger } from './logger.ts';
import { SharedStateUnavailable } from './shared/redis.ts';
import { StorageUnavailable } from './store/store.ts';

export const errorCodes = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  TOKEN_INVALID: 401,
  TOKEN_EXPIRED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  IDEMPOTENCY_CONFLICT: 409,
  ENDPOINT_READ_ONLY: 409,
  PAYLOAD_TOO_LARGE: 413,
  VALIDATION_FAILED: 422,
  AMOUNT_TOO_LOW: 422,
  AMOUNT_TOO_HIGH: 422,
  METHOD_UNAVAILABLE: 422,
  RETURN_URL_NOT_ALLOWED: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  BODY_ALREADY_READ: 500,
  UPSTREAM_ERROR: 502,
  QUOTE_UNAVAILABLE: 502,
  UPSTREAM_BUSY: 503,
  SERVICE_UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof errorCodes;

export interface FieldIssue {
  path: string;
  message: string;
}

/** Thrown anywhere in the app; shaped once by `onError`. */
export class AppError extends HTTPException {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { issues?: FieldIssue[]; details?: Record<string, unknown>; retryAfter?: number } = {},
  ) {
    super(errorCodes[code], { message });
    this.name = 'AppError';
  }
}

export function errorBody(c: Context, code: ErrorCode, message: string, extra: AppError['extra'] = {}) {
  return {
    error: {
      code,
      message,
      requestId: (c.get('requestId') as string | undefined) ?? '',
      ...(extra.issues ? { issues: extra.issues } : {}),
      ...(extra.details ? { details: extra.details } : {}),
    },
  };
}

/** `app.onError`: every failure leaves in the envelope; unknown ones are logged and become INTERNAL. */
export function handleError(error: Error, c: Context) {
  if (error instanceof AppError) {
    if (error.extra.retryAfter !== undefined) c.header('Retry-After', String(error.extra.retryAfter));
    return c.json(errorBody(c, error.code, error.message, error.extra), errorCodes[error.code]);
  }
  if (error instanceof StorageUnavailable || error instanceof SharedStateUnavailable) {
    // Logged once per request without the cause's details (they may hold the database's address).
    logger.warn(error.message, { requestId: c.get('requestId') });
    c.header('Retry-After', '1');
    return c.json(
      errorBody(c, 'SERVICE_UNAVAILABLE', 'Our storage is unavailable for a moment; try again shortly.'),
      503,
    );
  }
  if (error instanceof HTTPException) {
    const status = error.status;
    const code: ErrorCode =
      status === 413
        ? 'PAYLOAD_TOO_LARGE'
        : status === 401
          ? 'UNAUTHORIZED'
          : status === 403
            ? 'FORBIDDEN'
            : status === 404
              ? 'NOT_FOUND'
              : status === 429
                ? 'RATE_LIMITED'
                : status < 500
                  ? 'BAD_REQUEST'
                  : 'INTERNAL';
    return c.json(errorBody(c, code, error.message || code), errorCodes[code]);
  }
  logger.error('unhandled error', error, { requestId: c.get('requestId') });
  return c.json(errorBody(c, 'INTERNAL', 'Something went wrong on our side.'), 500);
}

/** Unknown routes: also the app's last route, so a host app that mounts it (`app.route`) answers the envelope too. */
export const handleNotFound = (c: Context) =>
  c.json(errorBody(c, 'NOT_FOUND', `No route ${c.req.method} ${c.req.path}`), 404);
