/**
 * One line per request: request id, method, path, status, time. Query values that could identify a customer
 * or unlock something (tokens, keys, signatures, e-mails, wallet addresses) are masked; bodies are never read.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../deps.ts';
import { logger } from '../logger.ts';

const sensitive = /token|key|signature|secret|sig|email|wallet|address|name|phone|search/i;

/** The path with sensitive query values replaced by `***`. */
export function loggablePath(url: string): string {
  const parsed = new URL(url);
  const params = [...parsed.searchParams.entries()].map(
    ([key, value]) => `${encodeURIComponent(key)}=${sensitive.test(key) ? '***' : encodeURIComponent(value)}`,
  );
  return params.length ? `${parsed.pathname}?${params.join('&')}` : parsed.pathname;
}

export function accessLog(write: (line: string) => void = logger.info): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = (performance.now() - started).toFixed(1);
      write(
        `${c.get('requestId') ?? '-'} ${c.req.method} ${loggablePath(c.req.url)} ${c.res.status} ${ms}ms`,
      );
    }
  };
}
