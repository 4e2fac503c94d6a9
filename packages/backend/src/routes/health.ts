/**
 * `GET /healthz`: liveness (the process answers; nothing else is asked, so it stays cheap). `GET /readyz`:
 * readiness, every check of checks/readiness.ts run once: 200 when each required check passes (with the upstream's
 * failures named in `degraded`), 503 otherwise, the same JSON either way (for a load balancer's health check, an
 * orchestrator's readiness probe; people and uptime checks read `degraded` too).
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { jsonResponse, openApiRoutes } from '../openapi.ts';

const healthRoute = createRoute({
  method: 'get',
  path: '/healthz',
  tags: ['Reference'],
  summary: 'Liveness, and whether the upstream is the sandbox',
  description: 'The process answers. No dependency is checked: readiness is `/readyz`.',
  responses: {
    200: jsonResponse(
      z.object({
        ok: z.literal(true),
        upstream: z.enum(['sandbox', 'live']),
        upstreamDrift: z
          .number()
          .int()
          .describe('kinds of upstream answers seen in a shape we had to drop parts of'),
        quoteDrift: z
          .number()
          .describe('largest relative difference between a derived quote and the upstream (0.001 = 0.1 %)'),
      }),
      'Up',
    ),
  },
});

const checkSchema = z.object({
  status: z.enum(['ok', 'failing', 'skipped']),
  required: z.boolean(),
  latencyMs: z.number().nullable(),
  lastError: z.object({ message: z.string(), at: z.string() }).nullable(),
  detail: z.string().optional(),
  checkedAt: z.string().optional().describe('upstream checks: when the probe answered here was made'),
  ageMs: z.number().optional(),
});

const checkNames = [
  'storage',
  'redis',
  'upstreamRamp',
  'upstreamPayments',
  'outboxWorker',
  'warmStart',
  'shutdown',
] as const;

export const readinessSchema = z
  .object({
    ready: z.boolean(),
    failing: z.array(z.enum(checkNames)).describe('the required checks failing now'),
    degraded: z
      .array(z.enum(checkNames))
      .describe(
        'the checks failing now that are not required (the upstream; Redis with REDIS_FALLBACK_INSTANCES): still ready, serving less',
      ),
    instance: z.string().describe('INSTANCE_NAME'),
    storage: z.object({
      kind: z.enum(['postgresql', 'sqlite', 'memory']),
      host: z.string().optional(),
      database: z.string().optional(),
    }),
    redis: z.object({ host: z.string() }).nullable(),
    upstream: z.object({ mode: z.enum(['sandbox', 'live']), ramp: z.string(), payments: z.string() }),
    checks: z.object(
      Object.fromEntries(checkNames.map((name) => [name, checkSchema])) as Record<
        (typeof checkNames)[number],
        typeof checkSchema
      >,
    ),
  })
  .meta({ id: 'Readiness' });

const readyRoute = createRoute({
  method: 'get',
  path: '/readyz',
  tags: ['Reference'],
  summary: 'Readiness: storage, Redis, the event worker, not shutting down; the upstream beside them',
  description:
    'Each check with its status, latency and last error. Required: storage, Redis (unless REDIS_FALLBACK_INSTANCES), ' +
    'the event worker, not shutting down. The upstream is probed with the configured keys at most every 30 s per ' +
    'instance (within the shared upstream budget; between probes its last result is given) and is not required: ' +
    'while it fails the instance stays ready (200) with the failing upstream check named in `degraded`, since every ' +
    'instance sees the same upstream and each still serves the catalog, cached and derived quotes and status streams.',
  responses: {
    200: jsonResponse(readinessSchema, 'Ready: every required check passes (`degraded` may name others)'),
    503: jsonResponse(readinessSchema, 'Not ready: `failing` names the required checks that fail'),
  },
});

export function healthRoutes(deps: AppDeps) {
  return openApiRoutes()
    .openapi(healthRoute, (c) =>
      c.json(
        {
          ok: true as const,
          upstream: deps.config.mode,
          upstreamDrift: deps.ramp.drift().length,
          quoteDrift: deps.quotes.maxDrift(),
        },
        200,
      ),
    )
    .openapi(readyRoute, async (c) => {
      const report = await deps.readiness.run();
      c.header('Cache-Control', 'no-store');
      return report.ready ? c.json(report, 200) : c.json(report, 503);
    });
}
