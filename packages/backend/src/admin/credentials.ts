/**
 * Named admin credentials: who presented a bearer token, and with which scope. Only the SHA-256 of each token
 * is configured (ADMIN_CREDENTIALS) or kept (the older ADMIN_TOKEN is hashed at start).
 *
 * SHA-256 and not a password hash (scrypt, argon2): the tokens are random, 256 bits when made as the README
 * says, so there is no dictionary to try and a slow hash would add nothing but CPU per request, which a client
 * sending bad tokens could spend. A leaked configuration therefore does not give admin access.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export const adminScopes = ['read', 'write'] as const;
export type AdminScope = (typeof adminScopes)[number];

/** A named admin credential: the SHA-256 (hex) of its token, never the token. */
export interface AdminCredential {
  name: string;
  scope: AdminScope;
  /** Lower-case hex SHA-256 of the bearer token. */
  sha256: string;
  /** The older single ADMIN_TOKEN, kept working as the write credential named "admin". */
  legacy: boolean;
}

/** The name the older ADMIN_TOKEN is known by in the audit log. */
export const legacyAdminName = 'admin';

export const tokenSha256 = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * The credential whose token is `token`, or undefined. Every configured hash is compared, in constant time,
 * whatever matches first: how long it takes says nothing about which credential (or how much of one) matched.
 */
export function credentialFor(
  credentials: readonly AdminCredential[],
  token: string,
): AdminCredential | undefined {
  const given = createHash('sha256').update(token, 'utf8').digest();
  let found: AdminCredential | undefined;
  for (const credential of credentials) {
    const expected = Buffer.from(credential.sha256, 'hex');
    if (timingSafeEqual(given, expected) && !found) found = credential;
  }
  return found;
}

/** Reads, which a read credential may do: everything else changes state and needs write. */
export const isRead = (method: string) => method === 'GET' || method === 'HEAD';
