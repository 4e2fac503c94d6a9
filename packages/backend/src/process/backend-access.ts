/**
 * Where `listen` and `trigger` find a running backend and the admin credential to use with it: `--url` and `--token`,
 * else the configuration the backend itself would read (the same `.env` and environment: PUBLIC_URL, or
 * http://localhost:PORT; ADMIN_TOKEN, or the sandbox's fixed token when no credential is configured). ADMIN_CREDENTIALS
 * holds only hashes of tokens, so a named credential's token is given with `--token`. And the sentence each
 * failure to reach or use it is told in, naming the fix.
 */
import { ConfigError, envFileSource, loadConfig, readEnvFile } from '../config.ts';

export interface BackendAccess {
  /** The backend's base URL, no trailing slash. */
  url: string;
  token: string;
  /** The configuration's mode when it was read (undefined: both flags given, nothing read). */
  mode?: 'sandbox' | 'live' | undefined;
  /** CHECKOUT_TOKEN_SECRET when the configuration was read (trigger mints a customer token with it). */
  checkoutTokenSecret?: string | undefined;
}

/** The access, or the sentence saying why there is none. */
export function findBackend(flags: {
  url?: string | undefined;
  token?: string | undefined;
}): BackendAccess | string {
  const trim = (url: string) => url.replace(/\/+$/, '');
  if (flags.url && flags.token) return { url: trim(flags.url), token: flags.token };
  let config: ReturnType<typeof loadConfig>;
  try {
    const file = readEnvFile();
    config = loadConfig(process.env, file ? { source: envFileSource(file, process.env) } : {});
  } catch (error) {
    const words = error instanceof ConfigError ? error.message : (error as Error).message;
    return `${words}\nOr give the backend's address and an admin token with --url and --token.`;
  }
  const token = flags.token ?? config.adminToken;
  if (!token)
    return (
      'No admin token to use: ADMIN_CREDENTIALS holds only hashes of tokens, and ADMIN_TOKEN is not set. ' +
      "Pass a credential's token with --token <token> (a read credential is enough)."
    );
  return {
    url: trim(flags.url ?? config.publicUrl),
    token,
    mode: config.mode,
    checkoutTokenSecret: config.checkoutTokenSecret,
  };
}

/** The backend did not answer at all. */
export function unreachable(access: BackendAccess, error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  return (
    `Cannot reach the backend at ${access.url}${cause ? ` (${cause})` : ''}: start it (crypto-checkout-backend), ` +
    'or give its address with --url (or set PUBLIC_URL or PORT as it runs with).'
  );
}

/** The backend answered the admin API with `status` instead of what was asked. */
export function backendRefusal(access: BackendAccess, status: number): string {
  if (status === 401)
    return (
      `The backend at ${access.url} refused the admin credential (401): pass the right token with --token ` +
      '(ADMIN_TOKEN, or the token of a credential in ADMIN_CREDENTIALS).'
    );
  if (status === 403)
    return `The backend at ${access.url} refused the admin credential's scope (403): pass another credential's token with --token.`;
  if (status === 429)
    return `The backend at ${access.url} is refusing this address after too many wrong admin credentials (429): wait 15 minutes, or run crypto-checkout-backend unlock <address> there, then pass the right --token.`;
  if (status === 404)
    return `${access.url} answered 404 for the admin API: is it this backend (an older version, or mounted under another path)? Give its address with --url.`;
  return `The backend at ${access.url} answered ${status}: see its log for why.`;
}
