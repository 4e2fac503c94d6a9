/**
 * `GET /api/admin/upstream-budget`: the upstream budget's use as this instance sees it (upstream/budget.ts,
 * redis-budget.ts): the limit, the tokens held now, the peak, and the calls granted, made to wait and refused
 * since start. The console's Health page shows it.
 */
import { $, createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { jsonResponse, openApiRoutes } from '../../openapi.ts';
import { adminErrors, adminRoute } from './admin-route.ts';

const count = (description: string) => z.number().int().describe(description);

export const upstreamBudgetSchema = z
  .object({
    perSecond: count(
      'The limit: upstream calls allowed in any one-second window (UPSTREAM_BUDGET, default 90)',
    ),
    inWindow: count(
      'Tokens held now: calls in flight, plus calls finished less than a window ago (with REDIS_URL: this instance’s calls in flight)',
    ),
    maxInWindow: count('The most tokens held at once since start (never above perSecond)'),
    inFlight: count('Calls upstream right now'),
    queued: count('Calls waiting for a token right now'),
    granted: count('Calls let through since start'),
    waited: count('Calls that had to wait for a token since start'),
    refused: count('Calls refused with UPSTREAM_BUSY since start (the budget spent)'),
    throttledByUpstream: count('Times the upstream answered 429 anyway (should stay 0)'),
  })
  .meta({ id: 'UpstreamBudget' });

export const upstreamBudgetResponse = z.object({
  budget: upstreamBudgetSchema.nullable().describe('null: this app spends no upstream budget'),
});

const upstreamBudgetRoute = createRoute({
  ...adminRoute,
  method: 'get',
  path: '/upstream-budget',
  summary:
    'The upstream budget’s use: the limit, tokens held now and at the peak, calls granted, waited, refused',
  responses: { 200: jsonResponse(upstreamBudgetResponse, 'Counters since start'), ...adminErrors() },
});

export function upstreamBudgetRoutes(deps: AppDeps) {
  return $(openApiRoutes()).openapi(upstreamBudgetRoute, (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ budget: deps.budget ? deps.budget.stats() : null }, 200);
  });
}
