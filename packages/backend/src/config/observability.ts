/** The observability settings (issue 26): logs and metrics, their variables, the problem they can make, their config. */
import { z } from 'zod';
import { instanceName } from '../logger.ts';
import { secret } from './rules.ts';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** How lines are written, what /metrics serves and to whom. */
export interface ObservabilityConfig {
  logLevel: (typeof logLevels)[number];
  /** `json`: one JSON object a line; `pretty`: readable lines; `auto`: pretty in a terminal outside production. */
  logFormat: 'json' | 'pretty' | 'auto';
  /** Names this instance in every log line (`instance`). */
  instance: string;
  metrics: {
    enabled: boolean;
    /** Bearer token /metrics asks for (on the app's port, or on METRICS_PORT too when both are set). */
    token: string | undefined;
    /** Serves /metrics on a listener of its own instead of the app's port. */
    port: number | undefined;
    host: string;
  };
}

/** The rules of the observability variables (their entries, with the documentation, are settings/observability.ts). */
export const observabilityRules = {
  LOG_LEVEL: z.enum(logLevels).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty', 'auto']).default('auto'),
  INSTANCE_NAME: z.string().min(1).max(200).optional(),
  METRICS: z.enum(['on', 'off']).default('off'),
  METRICS_TOKEN: secret('METRICS_TOKEN').optional(),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
};

export type ObservabilityVars = z.output<z.ZodObject<typeof observabilityRules>>;

/** Problems no single variable shows: metrics on, but neither protected by a token nor on a port of its own. */
export function observabilityProblems(env: Record<string, string | undefined>): string[] {
  if (env['METRICS'] !== 'on' || env['METRICS_TOKEN'] || env['METRICS_PORT']) return [];
  return [
    'METRICS=on needs METRICS_TOKEN (a bearer token for /metrics) or METRICS_PORT (a listener of its own, on METRICS_HOST)',
  ];
}

export function observabilityOf(vars: ObservabilityVars & { PORT: number }): ObservabilityConfig {
  return {
    logLevel: vars.LOG_LEVEL,
    logFormat: vars.LOG_FORMAT,
    instance: instanceName(vars.INSTANCE_NAME, vars.PORT),
    metrics: {
      enabled: vars.METRICS === 'on',
      token: vars.METRICS_TOKEN,
      port: vars.METRICS_PORT,
      host: vars.METRICS_HOST,
    },
  };
}
