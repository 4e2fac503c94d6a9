/**
 * A secret during a rotation: the current value (what this backend signs with) and the previous ones it still
 * accepts until the overlap ends (`previousUntil`, or until they are removed from the environment and the
 * backend restarted). README "Rotating secrets" gives each secret's steps.
 */
import { createHash } from 'node:crypto';

export interface Keyring {
  /** What new signatures and tokens use. */
  current: string;
  /** Still accepted (newest first); signed with too where both sides must agree (merchant events). */
  previous: readonly string[];
  /** Epoch ms after which `previous` is no longer accepted; undefined = until removed. */
  previousUntil: number | undefined;
}

export const singleKey = (current: string): Keyring => ({ current, previous: [], previousUntil: undefined });

/** Whether the previous values are still inside their overlap at `now`. */
export const overlapOpen = (keyring: Keyring, now: number) =>
  keyring.previous.length > 0 && (keyring.previousUntil === undefined || now < keyring.previousUntil);

/** Every value accepted at `now`, the current one first. */
export function acceptedSecrets(keyring: Keyring, now: number): string[] {
  return overlapOpen(keyring, now) ? [keyring.current, ...keyring.previous] : [keyring.current];
}

/**
 * A short public name of a secret: the first 8 characters of base64url(SHA-256(secret)). Tokens carry it so a
 * verifier picks the right secret; it reveals nothing a token's own HMAC does not (both are one-way functions
 * of the secret), and needs no name to be configured.
 */
export const keyId = (secret: string) => createHash('sha256').update(secret).digest('base64url').slice(0, 8);
