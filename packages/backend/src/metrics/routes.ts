/**
 * `GET /metrics`: the registry in Prometheus's text format. Behind `Authorization: Bearer <METRICS_TOKEN>` when
 * a token is configured (hono/bearer-auth, compared in constant time); served on the app's own port, or on a
 * listener of its own (metrics/server.ts, METRICS_PORT on METRICS_HOST).
 */
import { Hono } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import type { Registry } from 'prom-client';

export function metricsRoutes(registry: Registry, token: string | undefined) {
  const app = new Hono();
  if (token) app.use('/metrics', bearerAuth({ token }));
  return app.get('/metrics', async (c) => {
    const text = await registry.metrics();
    return c.body(text, 200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
  });
}
