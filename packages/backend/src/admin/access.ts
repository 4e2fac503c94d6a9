/**
 * Who may use `/api/admin/*`: a named credential (admin/credentials.ts) with the scope the request needs (a
 * GET reads; anything else changes state and needs write). Every write is recorded in the audit log
 * (admin/audit.ts), refused ones too.
 *
 * Wrong credentials are counted per client (the real one behind a trusted proxy: middleware/client-address.ts)
 * with `hono-rate-limiter` (shared in Redis with REDIS_URL, admin/lockouts.ts): past ADMIN_AUTH_MAX_FAILURES in 15
 * minutes that client's wrong credentials are answered 429 RATE_LIMITED until the window ends. A right credential
 * is checked first and always let in, from any address: the tokens are 256 bits, so no rate makes guessing one
 * feasible, and a count that refused the right holder would let anyone sharing an address (or a proxy the backend
 * was not told about) lock the admins out. The count keeps a guesser from hammering the admin API, and says so.
 */
import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { rateLimiter } from 'hono-rate-limiter';
import type { AppDeps, AppEnv } from '../deps.ts';
import { AppError } from '../errors.ts';
import { logger } from '../logger.ts';
import { clientAddress } from '../middleware/client-address.ts';
import { credentialKeyId, noteRotatingCredential } from '../secrets/previous-use.ts';
import type { AuditLog } from './audit.ts';
import type { ConsoleSessions } from './console-sessions.ts';
import { credentialFor, isRead } from './credentials.ts';
import type { Lockouts } from './lockouts.ts';

const failureWindowMs = 15 * 60_000;

/**
 * The count of wrong admin credentials per client: a middleware that counts one each time it runs and then runs
 * `next` (which throws the 401), or past the limit throws the 429. The admin routes and the console's sign-in
 * share it (one count per client, in lockouts' store).
 */
export function wrongCredentialCount(deps: AppDeps, lockouts: Lockouts) {
  return rateLimiter<AppEnv>({
    windowMs: failureWindowMs,
    limit: deps.config.admin.maxFailuresPer15Minutes,
    keyGenerator: clientAddress,
    store: lockouts.store,
    standardHeaders: 'draft-7',
    handler: (c) => {
      const retryAfter = Number(c.res.headers.get('Retry-After')) || failureWindowMs / 1000;
      throw new AppError(
        'RATE_LIMITED',
        `Too many wrong admin credentials from this address; try again in ${retryAfter} s.`,
        { retryAfter },
      );
    },
  });
}

/**
 * `sessions`: the console's sign-ins (admin/console-sessions.ts). A request with no Authorization header is let
 * in by a console session only with that session's CSRF token; an ended session is a 401 that is not counted as a
 * wrong credential (nothing was guessed).
 */
export function adminAccess(
  deps: AppDeps,
  audit: AuditLog,
  lockouts: Lockouts,
  sessions?: ConsoleSessions,
): MiddlewareHandler<AppEnv> {
  const { credentials } = deps.config.admin;
  const failures = wrongCredentialCount(deps, lockouts);

  return async (c, next) => {
    const authorization = c.req.header('authorization');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    let credential = match?.[1] ? credentialFor(credentials, match[1]) : undefined;
    const clientIp = clientAddress(c);
    if (authorization === undefined && sessions) {
      const ofSession = await sessions.credentialFor(c);
      if (ofSession === 'ended')
        throw new AppError(
          'UNAUTHORIZED',
          'The console session has ended or lacks its token: sign in again.',
        );
      credential = ofSession;
    }
    if (!credential) {
      // Counted: past the limit this client is answered 429 instead of 401.
      return failures(c, async () => {
        logger.warn(
          `[admin] a wrong or missing admin credential from ${clientIp} (${c.req.method} ${c.get('path')})`,
        );
        throw new AppError('UNAUTHORIZED', 'A valid admin credential is required.');
      });
    }
    c.set('adminCredential', credential);
    noteRotatingCredential(deps.metrics, credentials, credential);
    if (isRead(c.req.method)) return next();

    const action = `${c.req.method} ${c.get('path')}`;
    const entry = await audit.begin({
      credential: credential.name,
      keyId: credentialKeyId(credential),
      scope: credential.scope,
      action,
      clientIp,
      requestId: c.get('requestId'),
    });
    const finish = (status: number) =>
      audit
        .finish(entry, status, c.get('auditNote'))
        .catch((error: Error) =>
          logger.error(`[admin] the outcome of audit entry ${entry.id} was not recorded: ${error.message}`),
        );
    if (credential.scope !== 'write') {
      await finish(403);
      throw new AppError(
        'FORBIDDEN',
        `The admin credential "${credential.name}" has the read scope: it can list orders and events but not ${action}, which changes state and needs a write credential.`,
        { details: { credential: credential.name, scope: credential.scope, needs: 'write' } },
      );
    }
    try {
      await next();
    } catch (error) {
      await finish(error instanceof HTTPException ? error.status : 500);
      throw error;
    }
    await finish(c.res.status);
  };
}
