/**
 * Acceptances by a secret on its way out, so a rotation can be finished: each one is counted in /metrics
 * (`checkout_previous_secret_accepted_total{secret, key_id}`) and logged at info, naming which secret and its key
 * id, never its value. "None in the last day" tells the operator the old value can be removed.
 *
 * The key id is the first 8 hex characters of the SHA-256 of the value: it names one value among several without
 * revealing it, and for an admin credential it is the start of the hash in ADMIN_CREDENTIALS (and in the audit
 * log), so the operator finds the entry by it.
 */
import { createHash } from 'node:crypto';
import type { AdminCredential } from '../admin/credentials.ts';
import { logger } from '../logger.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Keyring } from './keyring.ts';

/** The variable whose old value was accepted (ADMIN_CREDENTIALS: an entry of a name listed twice). */
export type PreviousSecret =
  | 'CHECKOUT_TOKEN_SECRET_PREVIOUS'
  | 'PAY_WEBHOOK_SECRET_PREVIOUS'
  | 'RAMP_SECRET_KEY_PREVIOUS'
  | 'ADMIN_CREDENTIALS';

/** The public name of a secret's value: the first 8 hex characters of its SHA-256. */
export const secretKeyId = (value: string) =>
  createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 8);

/** An admin credential's key id: the first 8 hex characters of its stored SHA-256 (the same as `secretKeyId`). */
export const credentialKeyId = (credential: Pick<AdminCredential, 'sha256'>) => credential.sha256.slice(0, 8);

function accepted(
  metrics: Pick<Metrics, 'previousSecretAccepted'>,
  secret: PreviousSecret,
  keyId: string,
  what: string,
) {
  metrics.previousSecretAccepted(secret, keyId);
  // The request's id comes with the line (logger.ts), as on every line a request causes.
  logger.info(`[rotation] ${what} was accepted by ${secret} (key id ${keyId}): still in use`, {
    variable: secret,
    keyId,
  });
}

/**
 * After a verification by `keyring` with `value`: counts and logs when `value` is one of its previous values (the
 * current one is not news). `what` says what was accepted (`a payments webhook`).
 */
export function notePreviousSecret(
  metrics: Pick<Metrics, 'previousSecretAccepted'>,
  secret: Exclude<PreviousSecret, 'ADMIN_CREDENTIALS'>,
  keyring: Keyring,
  value: string | undefined,
  what: string,
): void {
  if (value === undefined || value === keyring.current || !keyring.previous.includes(value)) return;
  accepted(metrics, secret, secretKeyId(value), what);
}

/**
 * After an admin request was let in with `credential`: counted when its name is listed more than once (a token
 * being rotated). Both entries are counted, each by its key id: which one is the old is the operator's to know
 * (the start of its hash), so nothing here guesses it from their order.
 */
export function noteRotatingCredential(
  metrics: Pick<Metrics, 'previousSecretAccepted'>,
  credentials: readonly AdminCredential[],
  credential: AdminCredential,
): void {
  if (credentials.filter((other) => other.name === credential.name).length < 2) return;
  accepted(
    metrics,
    'ADMIN_CREDENTIALS',
    credentialKeyId(credential),
    `admin credential "${credential.name}"`,
  );
}
