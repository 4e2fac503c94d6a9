/** Per-route fault injection: latency, an error status, a malformed body or an HTML 403 challenge page. */
import type { MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import type { SandboxState } from '../state.ts';

export const faultRuleSchema = z.object({
  /** Path under the sandbox mount, e.g. `/ramp/api/v1/merchant/pricing`; a trailing `*` matches a prefix. */
  route: z.string().startsWith('/'),
  method: z.string().toUpperCase().optional(),
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  /** Answer with this status (and the upstream's own error envelope unless `body` says otherwise). */
  status: z.number().int().min(200).max(599).optional(),
  body: z.enum(['envelope', 'malformed', 'html403', 'empty']).optional(),
  /** Apply to the next N matching requests only; unlimited when absent. */
  times: z.number().int().min(1).optional(),
  /** Apply to this share of the matching requests, picked at random (0.2: one in five); all when absent. */
  probability: z.number().min(0).max(1).optional(),
});

export type FaultRule = z.infer<typeof faultRuleSchema>;

const challengePage = `<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>
<div id="challenge">Checking your browser before accessing the API.</div>
<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>`;

function matches(rule: FaultRule, path: string, method: string): boolean {
  if (rule.method && rule.method !== method) return false;
  return rule.route.endsWith('*') ? path.startsWith(rule.route.slice(0, -1)) : path === rule.route;
}

/** `mountPath` is stripped from the request path so rules read the same mounted or standalone. */
export function faultInjection(state: SandboxState, mountPath = ''): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path.slice(mountPath.length) || '/';
    if (path.startsWith('/control')) return next();
    const index = state.faults.findIndex(
      (rule) =>
        matches(rule, path, c.req.method) &&
        (rule.probability === undefined || Math.random() < rule.probability),
    );
    const rule = state.faults[index];
    if (!rule) return next();
    if (rule.times !== undefined) {
      rule.times -= 1;
      if (rule.times <= 0) state.faults.splice(index, 1);
    }
    if (rule.latencyMs) await new Promise((resolve) => setTimeout(resolve, rule.latencyMs));
    if (rule.status === undefined && rule.body === undefined) return next();
    const status = (rule.status ?? (rule.body === 'html403' ? 403 : 500)) as ContentfulStatusCode;
    switch (rule.body) {
      case 'html403':
        return c.html(challengePage, status);
      case 'malformed':
        return c.body('{"success": true, "data": {"crypto_amount": 0.1', status, {
          'content-type': 'application/json',
        });
      case 'empty':
        return c.body(null, status === 200 ? 204 : status);
      default:
        return c.json({ success: false, data: null, message: `Injected fault (${status})` }, status);
    }
  };
}
