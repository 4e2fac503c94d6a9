/** A per-client (per IP) rate limit on the public routes: `hono-rate-limiter`, answering 429 RATE_LIMITED. */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
import type { AppEnv } from '../deps.ts';
import { AppError } from '../errors.ts';

/**
 * The client's address as the socket saw it. `X-Forwarded-For` is not trusted: anyone can send it, so a client
 * could pick a fresh identity per request. Behind a proxy, put the limit in the proxy or change this deliberately.
 */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // Not served by @hono/node-server (e.g. `app.request()` in a test): one shared bucket.
    return 'unknown';
  }
}

export function clientRateLimit(perMinute: number): MiddlewareHandler<AppEnv> {
  return rateLimiter<AppEnv>({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-7',
    keyGenerator: clientAddress,
    handler: (c) => {
      const retryAfter = Number(c.res.headers.get('Retry-After')) || 60;
      throw new AppError('RATE_LIMITED', 'Too many requests from this client; slow down and try again.', {
        retryAfter,
      });
    },
  });
}
