/**
 * What each request leaves behind, in one middleware (one clock reading, one route lookup per request): a log line
 * (ACCESS_LOG: request id, method, path, route template, status, duration) and the HTTP metrics (METRICS: count
 * and duration by method, route template and status). Query values that could identify a customer or unlock
 * something (tokens, keys, signatures, e-mails, wallet addresses) are masked; bodies are never read.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../deps.ts';
import type { RequestLine } from '../logger.ts';
import type { Metrics } from '../metrics/metrics.ts';
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

export interface RequestObserver {
  /** Writes the access-log line (ACCESS_LOG=on). */
  log?: ((line: string, fields: RequestLine) => void) | undefined;
  /** Counts and times the request (METRICS=on). */
  metrics?: Pick<Metrics, 'httpRequest'> | undefined;
  /** Logs probes and scrapes that succeed too (ACCESS_LOG_PROBES=on); a failed one is always logged. */
  probes?: boolean | undefined;
}

/** A load balancer's, an uptime check's or Prometheus's request, by route template: most of a quiet hour's lines. */
const probeRoutes = new Set(['/healthz', '/readyz', '/metrics']);

export function accessLog({ log, metrics, probes }: RequestObserver): MiddlewareHandler<AppEnv> {
  // Where this app is mounted is the same for every request: read once.
  let mount: string | undefined;
  return async (c, next) => {
    const started = performance.now();
    mount ??= mountOf(c);
    try {
      await next();
    } finally {
      const ms = performance.now() - started;
      const route = routeOf(c, mount);
      const status = c.res.status;
      metrics?.httpRequest(c.req.method, route, status, ms / 1000);
      if (log && (probes || status >= 300 || !probeRoutes.has(route))) {
        const durationMs = Math.round(ms * 100) / 100;
        // Most requests carry no query: their path is the router's, without parsing the URL again.
        const path = c.req.url.includes('?') ? loggablePath(c.req.url) : c.req.path;
        log(`${c.req.method} ${path} ${status} ${durationMs}ms`, {
          requestId: c.get('requestId'),
          method: c.req.method,
          path,
          route,
          status,
          durationMs,
        });
      }
    }
  };
}
