/** The settings of the HTTP side: where it listens and is reached, who may call it, what it logs, its console. */
import { z } from 'zod';
import { splitTrustedProxies } from '../../trusted-proxies.ts';
import { notAnOrigin, numeric, origin, rules, url, urlOf } from '../rules.ts';
import { setting } from '../setting.ts';

const consoleMinutes = z
  .number()
  .int()
  .min(5)
  .max(7 * 24 * 60);

export const httpSettings = {
  PORT: setting({
    env: numeric(rules.port).default(8787),
    doc: 'Port to listen on.',
    at: 'port',
    code: rules.port,
  }),
  PUBLIC_URL: setting({
    env: url.optional(),
    doc: 'Where shoppers and the upstream reach this backend (return routes, webhooks); default http://localhost:PORT.',
    at: 'publicUrl',
    code: urlOf,
    decided: true,
  }),
  ALLOWED_ORIGINS: setting({
    env: z
      .string()
      .optional()
      .transform((value, ctx) => {
        const origins: string[] = [];
        for (const raw of (value ?? '')
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)) {
          try {
            const parsed = new URL(raw);
            if (parsed.origin === 'null') throw new Error('opaque');
            origins.push(parsed.origin);
          } catch {
            ctx.addIssue({ code: 'custom', message: notAnOrigin(raw) });
          }
        }
        return origins;
      }),
    doc: 'Storefront origins, comma-separated: CORS, allowed return URLs, who may frame the return page.',
    at: 'allowedOrigins',
    code: z.array(origin),
    decided: true,
  }),
  RATE_LIMIT_PER_MINUTE: setting({
    env: numeric(rules.rateLimitPerMinute).default(120),
    doc: 'Requests per minute one client (IP) may send to the public routes.',
    at: 'rateLimitPerMinute',
    code: rules.rateLimitPerMinute,
  }),
  TRUSTED_PROXIES: setting({
    env: z
      .string()
      .optional()
      .transform((value) => splitTrustedProxies(value))
      .pipe(rules.trustedProxies),
    doc: "Proxies whose X-Forwarded-For names the client: addresses, CIDR ranges, loopback, private (none: nobody's).",
    at: 'trustedProxies',
    code: rules.trustedProxies.optional(),
  }),
  ACCESS_LOG: setting({
    env: z.enum(['on', 'off']).default('on'),
    doc: 'One line per request on stdout (request id, method, path, status, time); `off` in tests.',
    at: 'accessLog',
    code: z.boolean(),
    to: (value) => value === 'on',
  }),
  ACCESS_LOG_PROBES: setting({
    env: z.enum(['on', 'off']).default('off'),
    doc: 'Whether the access log keeps successful probes and scrapes (/healthz, /readyz, /metrics); failed ones always are.',
    at: 'accessLogProbes',
    code: z.boolean().optional(),
    to: (value) => value === 'on',
  }),
  CONSOLE: setting({
    env: z.enum(['on', 'off']).default('on'),
    doc: 'The merchant console at /console (docs/console.md); `off` serves nothing there.',
    at: 'console.enabled',
    code: z.boolean(),
    to: (value) => value === 'on',
  }),
  CONSOLE_SESSION_MINUTES: setting({
    env: numeric(consoleMinutes).default(480),
    doc: 'How long a console sign-in lasts, in minutes (its session cookie and the stored session expire together).',
    at: 'console.sessionMinutes',
    code: consoleMinutes,
  }),
  SHUTDOWN_DRAIN_MS: setting({
    env: numeric(rules.shutdownDrainMs).default(3000),
    doc: 'After SIGTERM: how long requests are still served while /readyz fails, so a load balancer moves away (ms).',
    at: 'shutdown.drainMs',
    code: rules.shutdownDrainMs,
  }),
  SHUTDOWN_TIMEOUT_MS: setting({
    env: numeric(rules.shutdownTimeoutMs).default(30_000),
    doc: 'After SIGTERM: the most the whole shutdown may take before the process exits anyway, with code 1 (ms).',
    at: 'shutdown.timeoutMs',
    code: rules.shutdownTimeoutMs,
  }),
};
