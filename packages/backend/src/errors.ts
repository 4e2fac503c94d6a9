/** The one error envelope `{error:{code, message, requestId}}` and the documented list of codes. */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export const errorCodes = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  TOKEN_INVALID: 401,
  TOKEN_EXPIRED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  IDEMPOTENCY_CONFLICT: 409,
  ENDPOINT_READ_ONLY: 409,
  REFUND_STATE: 409,
  REFUND_NOT_ALLOWED: 409,
  ORDER_STATE_CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  VALIDATION_FAILED: 422,
  AMOUNT_TOO_LOW: 422,
  AMOUNT_TOO_HIGH: 422,
  METHOD_UNAVAILABLE: 422,
  RETURN_URL_NOT_ALLOWED: 422,
  REFUND_TOO_LARGE: 422,
  ADDRESS_INVALID: 422,
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
