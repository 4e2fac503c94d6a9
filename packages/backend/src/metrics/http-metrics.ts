/** Counts and times every request by method, route template and status (METRICS=on). */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../deps.ts';
import { mountOf, routeOf } from '../middleware/route-template.ts';
import type { Metrics } from './metrics.ts';

export function httpMetrics(metrics: Metrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const mount = mountOf(c);
    try {
      await next();
    } finally {
      metrics.httpRequest(
        c.req.method,
        routeOf(c, mount),
        c.res.status,
        (performance.now() - started) / 1000,
      );
    }
  };
}
