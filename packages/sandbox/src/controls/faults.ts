/**
 * Fault injection, per route: latency, an error status, a broken or foreign body. Rules are posted to
 * `/control/faults` and kept in the state's `FaultBook`; the middleware asks the book which rule a request meets.
 * Latency waits on the sandbox clock and `probability` draws seeded numbers, so a fault is exactly repeatable.
 *
 * A new kind of answer is one entry in `answers`; a new kind of rule is a field of `faultRuleSchema` and its
 * effect in `faultInjection`.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import type { SettableClock } from '../clock.ts';
import { drawFrom } from '../random.ts';

const challengePage = `<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>
<div id="challenge">Checking your browser before accessing the API.</div>
<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>`;

interface FaultAnswer {
  /** How the landing page names it. */
  summary: string;
  /** The status when the rule names none. */
  status: ContentfulStatusCode;
  answer(c: Context, status: ContentfulStatusCode): Response;
}

/** What a rule may answer instead of the route (its `body`); `envelope` when a rule names only a status. */
export const answers = {
  envelope: {
    summary: 'an error status',
    status: 500,
    answer: (c, status) =>
      c.json({ success: false, data: null, message: `Injected fault (${status})` }, status),
  },
  malformed: {
    summary: 'a malformed body',
    status: 500,
    answer: (c, status) =>
      c.body('{"success": true, "data": {"crypto_amount": 0.1', status, {
        'content-type': 'application/json',
      }),
  },
  html403: {
    summary: 'an HTML 403 challenge',
    status: 403,
    answer: (c, status) => c.html(challengePage, status),
  },
  empty: {
    summary: 'an empty body',
    status: 500,
    answer: (c, status) => c.body(null, status === 200 ? 204 : status),
  },
} satisfies Record<string, FaultAnswer>;

type AnswerKind = keyof typeof answers;

export const faultRuleSchema = z.object({
  /** Path under the sandbox mount, e.g. `/ramp/api/v1/merchant/pricing`; a trailing `*` matches a prefix. */
  route: z.string().startsWith('/'),
  method: z.string().toUpperCase().optional(),
  /** Delay before answering, in sandbox time: a pinned clock holds the answer until it is advanced. */
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  /** Answer with this status (and the upstream's own error envelope unless `body` says otherwise). */
  status: z.number().int().min(200).max(599).optional(),
  body: z.enum(Object.keys(answers) as [AnswerKind, ...AnswerKind[]]).optional(),
  /** Apply to the next N matching requests only; unlimited when absent. */
  times: z.number().int().min(1).optional(),
  /** Apply to this share of the matching requests, drawn from `seed` (0.2: one in five); all when absent. */
  probability: z.number().min(0).max(1).optional(),
  /** Which requests `probability` picks: the same seed picks the same ones (by order of arrival) every run. */
  seed: z.number().int().optional(),
});

export type FaultRule = z.infer<typeof faultRuleSchema>;

function matches(rule: FaultRule, path: string, method: string): boolean {
  if (rule.method && rule.method !== method) return false;
  return rule.route.endsWith('*') ? path.startsWith(rule.route.slice(0, -1)) : path === rule.route;
}

/** The fault rules in force, in the order they were posted. */
export class FaultBook {
  #rules: Array<{ rule: FaultRule; draws: number }> = [];

  add(rule: FaultRule): FaultRule[] {
    this.#rules.push({ rule, draws: 0 });
    return this.list();
  }

  list(): FaultRule[] {
    return this.#rules.map(({ rule }) => rule);
  }

  clear(): void {
    this.#rules = [];
  }

  /**
   * The first rule this request meets, counted against its `times` (dropped when they run out); undefined when
   * none applies. A rule with a `probability` the draw passes over lets the next matching rule have its turn.
   */
  take(path: string, method: string): FaultRule | undefined {
    const index = this.#rules.findIndex((entry) => {
      const { rule } = entry;
      if (!matches(rule, path, method)) return false;
      if (rule.probability === undefined) return true;
      return drawFrom(String(rule.seed ?? 0), entry.draws++) < rule.probability;
    });
    const rule = this.#rules[index]?.rule;
    if (rule?.times !== undefined) {
      rule.times -= 1;
      if (rule.times <= 0) this.#rules.splice(index, 1);
    }
    return rule;
  }
}

/** `mountPath` is stripped from the request path so rules read the same mounted or standalone. */
/** What the fault middleware reads of the sandbox's state (state.ts `SandboxState`). */
export interface FaultSource {
  readonly faults: FaultBook;
  readonly clock: Pick<SettableClock, 'sleep'>;
}

export function faultInjection(state: FaultSource, mountPath = ''): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path.slice(mountPath.length) || '/';
    if (path.startsWith('/control')) return next();
    const rule = state.faults.take(path, c.req.method);
    if (!rule) return next();
    if (rule.latencyMs) await state.clock.sleep(rule.latencyMs, `latency ${c.req.method} ${path}`);
    if (rule.status === undefined && rule.body === undefined) return next();
    const kind = answers[rule.body ?? 'envelope'];
    return kind.answer(c, (rule.status ?? kind.status) as ContentfulStatusCode);
  };
}
