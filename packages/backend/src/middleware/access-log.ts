/**
 * One line per request (ACCESS_LOG): request id, method, path, route template, status, duration. Query values
 * that could identify a customer or unlock something (tokens, keys, signatures, e-mails, wallet addresses) are
 * masked; bodies are never read.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../deps.ts';
import { type LogFields, logger } from '../logger.ts';
import { mountOf, routeOf } from './route-template.ts';

const sensitive = /token|key|signature|secret|sig|email|wallet|address|name|phone|search/i;

/** The path with sensitive query values replaced by `***`. */
export function loggablePath(url: string): string {
  const parsed = new URL(url);
  const params = [...parsed.searchParams.entries()].map(
    ([key, value]) => `${encodeURIComponent(key)}=${sensitive.test(key) ? '***' : encodeURIComponent(value)}`,
  );
  return params.length ? `${parsed.pathname}?${params.join('&')}` : parsed.pathname;
}

/** A URL as it may be logged: no user or password, sensitive query values masked. */
export function loggableUrl(url: string): string {
  try {
    return `${new URL(url).origin}${loggablePath(url)}`;
  } catch {
    return '(not a URL)';
  }
}

export function accessLog(
  write: (line: string, fields: LogFields) => void = logger.info,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const mount = mountOf(c);
    try {
      await next();
    } finally {
      const durationMs = Math.round((performance.now() - started) * 100) / 100;
      const path = loggablePath(c.req.url);
      const status = c.res.status;
      write(`${c.req.method} ${path} ${status} ${durationMs}ms`, {
        requestId: c.get('requestId'),
        method: c.req.method,
        path,
        route: routeOf(c, mount),
        status,
        durationMs,
      });
    }
  };
}
