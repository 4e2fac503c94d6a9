/** Logs and metrics: each variable's entry (its rule is observability.ts's, where its config is made). */
import { observabilityRules as rule } from '../observability.ts';
import { setting } from '../setting.ts';

export const observabilitySettings = {
  LOG_LEVEL: setting({
    env: rule.LOG_LEVEL,
    doc: 'The least severe line written: fatal, error, warn, info, debug, trace or silent.',
    at: 'observability.logLevel',
    decided: true,
  }),
  LOG_FORMAT: setting({
    env: rule.LOG_FORMAT,
    doc: '`json` lines, `pretty` ones, or `auto` (pretty in a terminal outside production).',
    at: 'observability.logFormat',
    decided: true,
  }),
  INSTANCE_NAME: setting({
    env: rule.INSTANCE_NAME,
    doc: 'The `instance` field of every log line (default <hostname>:<PORT>).',
    at: 'observability.instance',
    decided: true,
  }),
  METRICS: setting({
    env: rule.METRICS,
    doc: 'Prometheus metrics at /metrics (`on` needs METRICS_TOKEN or METRICS_PORT).',
    at: 'observability.metrics.enabled',
    decided: true,
  }),
  METRICS_TOKEN: setting({
    env: rule.METRICS_TOKEN,
    doc: 'The bearer token /metrics asks for.',
    at: 'observability.metrics.token',
    decided: true,
  }),
  METRICS_PORT: setting({
    env: rule.METRICS_PORT,
    doc: 'Serves /metrics on a listener of its own instead of the app’s port.',
    at: 'observability.metrics.port',
    decided: true,
  }),
  METRICS_HOST: setting({
    env: rule.METRICS_HOST,
    doc: 'The address METRICS_PORT binds to.',
    at: 'observability.metrics.host',
    decided: true,
  }),
};
