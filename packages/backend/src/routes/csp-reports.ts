/**
 * `POST /api/csp-reports`: where the storefront's CSP (csp/storefront-csp.ts) sends its violation reports, by
 * `report-uri` (`application/csp-report`) and by the Reporting API's `report-to` (`application/reports+json`).
 * Each report is one log line and one count in `checkout_csp_violations_total`; the body is bounded (16 kB,
 * app.ts) and the sender rate-limited like any shopper's request.
 */
import { createRoute } from '@hono/zod-openapi';
import { parseCspReports } from '../csp/reports.ts';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { logger } from '../logger.ts';
import { errorResponses, openApiRoutes } from '../openapi.ts';

const reportRoute = createRoute({
  method: 'post',
  path: '/',
  tags: ['Widget'],
  summary: 'A CSP violation report from a storefront page',
  description:
    'The `report-uri` and `report-to` of the policy `crypto-checkout-backend csp` prints. Bodies: `application/csp-report` (one report) or `application/reports+json` (a list; its `csp-violation` reports are read). Logged (no query strings) and counted in `/metrics` as `checkout_csp_violations_total{directive, blocked}`.',
  request: {
    body: {
      required: true,
      content: {
        'application/csp-report': { schema: { type: 'object' as const } },
        'application/reports+json': { schema: { type: 'array' as const } },
      },
    },
  },
  responses: {
    204: { description: 'Received' },
    ...errorResponses('BAD_REQUEST', 'PAYLOAD_TOO_LARGE'),
  },
});

export function cspReportRoutes(deps: AppDeps) {
  return openApiRoutes().openapi(reportRoute, async (c) => {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      throw new AppError('BAD_REQUEST', 'The report is not JSON.');
    }
    const violations = parseCspReports(c.req.header('content-type') ?? '', body);
    if (!violations) {
      throw new AppError(
        'BAD_REQUEST',
        'Not a CSP report: send application/csp-report or application/reports+json.',
      );
    }
    for (const violation of violations) {
      deps.metrics.cspViolation(violation.directive, violation.blocked);
      logger.warn('CSP violation reported by a storefront page', { csp: violation });
    }
    return c.body(null, 204);
  });
}
