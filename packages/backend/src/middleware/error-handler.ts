/**
 * How a failure leaves the app: `app.onError` and `app.notFound`, each answer in the one envelope (errors.ts); a
 * store or Redis outage is 503 with a retry hint.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { AppError, type ErrorCode, errorBody, errorCodes } from '../errors.ts';
import { logger } from '../logger.ts';
import { SharedStateUnavailable } from '../shared/redis.ts';
import { StorageUnavailable } from '../store/store.ts';

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
