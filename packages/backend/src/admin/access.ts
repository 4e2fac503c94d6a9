/**
 * Who may use `/api/admin/*`: a named credential (admin/credentials.ts) with the scope the request needs (a
 * GET reads; anything else changes state and needs write). Wrong credentials are counted per client address
 * with `hono-rate-limiter` (shared in Redis with REDIS_URL): past ADMIN_AUTH_MAX_FAILURES in 15 minutes the
 * client is answered 429 RATE_LIMITED, right credential or not, until the window ends, so tokens cannot be
 * guessed at speed. Every write is recorded in the audit log (admin/audit.ts), refused ones too.
 */
import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { MemoryStore, rateLimiter } from 'hono-rate-limiter';
import type { AppDeps, AppEnv } from '../deps.ts';
import { AppError } from '../errors.ts';
import { logger } from '../logger.ts';
import { clientAddress, redisCounts } from '../middleware/rate-limit.ts';
import { credentialKeyId, noteRotatingCredential } from '../secrets/previous-use.ts';
import type { AuditLog } from './audit.ts';
import { credentialFor, isRead } from './credentials.ts';

const failureWindowMs = 15 * 60_000;

export function adminAccess(deps: AppDeps, audit: AuditLog): MiddlewareHandler<AppEnv> {
  const { credentials, maxFailuresPer15Minutes } = deps.config.admin;
  const failures = rateLimiter<AppEnv>({
    windowMs: failureWindowMs,
    limit: maxFailuresPer15Minutes,
    keyGenerator: clientAddress,
    store: deps.shared
      ? redisCounts(deps.shared.redis, deps.shared.fallbackInstances !== undefined, 'cc:admin-failures:')
      : new MemoryStore<AppEnv>(),
    // Only refusals of the credential count; a right one (whatever the route then answers) does not.
    skipSuccessfulRequests: true,
    requestWasSuccessful: (c) => c.res.status !== 401,
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

  return (c, next) =>
    failures(c, async () => {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
      const credential = match?.[1] ? credentialFor(credentials, match[1]) : undefined;
      const clientIp = clientAddress(c);
      if (!credential) {
        logger.warn(
          `[admin] a wrong or missing admin credential from ${clientIp} (${c.req.method} ${c.get('path')})`,
        );
        throw new AppError('UNAUTHORIZED', 'A valid admin credential is required.');
      }
      c.set('adminCredential', credential);
      noteRotatingCredential(deps.metrics, credentials, credential, { requestId: c.get('requestId') });
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
    });
}
