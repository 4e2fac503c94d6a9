/** The security series: requests accepted by a secret being rotated out, CSP violations browsers reported. */
import { Counter, type Registry } from 'prom-client';
import type { Metrics } from './types.ts';

/** Distinct blocked origins a CSP violation series is kept for (label values stay bounded). */
export const maxCspBlockedOrigins = 20;

export function securitySeries(registry: Registry): Pick<Metrics, 'previousSecretAccepted' | 'cspViolation'> {
  const previousSecrets = new Counter({
    name: 'checkout_previous_secret_accepted_total',
    help: 'Requests accepted by a secret being rotated out, by variable (CHECKOUT_TOKEN_SECRET_PREVIOUS, PAY_WEBHOOK_SECRET_PREVIOUS, RAMP_SECRET_KEY_PREVIOUS; ADMIN_CREDENTIALS: either entry of a name listed twice) and key id (first 8 hex characters of the SHA-256 of the value). None for a day: the old value can be removed.',
    labelNames: ['secret', 'key_id'],
    registers: [registry],
  });
  const cspViolations = new Counter({
    name: 'checkout_csp_violations_total',
    help: `CSP violations browsers reported to /api/csp-reports, by directive and what was blocked: an origin, or inline, eval, data, blob, trusted-types-sink… as such; after ${maxCspBlockedOrigins} distinct origins, other. A new blocked value is what CheckoutCspNewBlockedSource alerts on.`,
    labelNames: ['directive', 'blocked'],
    registers: [registry],
  });
  const cspOrigins = new Set<string>();

  return {
    previousSecretAccepted: (secret, keyId) => previousSecrets.labels(secret, keyId).inc(),
    cspViolation(directive, blocked) {
      let label = blocked;
      if (blocked.includes(':') && !cspOrigins.has(blocked)) {
        if (cspOrigins.size < maxCspBlockedOrigins) cspOrigins.add(blocked);
        else label = 'other';
      }
      cspViolations.labels(directive, label).inc();
    },
  };
}
