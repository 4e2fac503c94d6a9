/**
 * `/api/admin/credential` (who am I, with which scope), `/api/admin/audit` (the audit log of admin writes,
 * newest first), and `/api/admin/lockouts` (lifting the wrong-credential count of an address, or of all; a write,
 * so audited). Behind the same access check as every admin route (admin/access.ts).
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { type AuditLog, noteAudit } from '../admin/audit.ts';
import { adminScopes } from '../admin/credentials.ts';
import { type Lockouts, lockoutKey } from '../admin/lockouts.ts';
import { logger } from '../logger.ts';
import { errorResponses, jsonResponse, openApiRoutes, securedBy } from '../openapi.ts';
import { credentialKeyId } from '../secrets/previous-use.ts';

const adminRoute = { tags: ['Merchant'], security: securedBy('admin') };

export const credentialResponse = z
  .object({
    name: z
      .string()
      .describe('The name the credential has in ADMIN_CREDENTIALS (`admin`: the older ADMIN_TOKEN)'),
    scope: z
      .enum(adminScopes)
      .describe('read: lists orders, events and engine health; write: also changes state'),
    keyId: z
      .string()
      .describe(
        'Which token of that name: the first 8 hex characters of its SHA-256, as in ADMIN_CREDENTIALS',
      ),
  })
  .meta({ id: 'AdminCredential' });

export const auditEntrySchema = z
  .object({
    id: z.string(),
    createdAt: z.string().describe('When the write was asked for'),
    credential: z.string().describe("The admin credential's name"),
    keyId: z
      .string()
      .nullable()
      .describe(
        'Which token of that name: the first 8 hex characters of its SHA-256, as in ADMIN_CREDENTIALS (null: an entry from before this was recorded)',
      ),
    scope: z.enum(adminScopes),
    action: z.string().describe('Method and path, e.g. `POST /api/admin/payment-links`'),
    target: z.string().nullable().describe('What it made or touched (an order id, an event id)'),
    details: z.record(z.string(), z.unknown()).nullable(),
    clientIp: z
      .string()
      .describe(
        'The client: the connection’s peer, or the client a proxy in TRUSTED_PROXIES named; `unknown` when a fetch handler handed in no address',
      ),
    requestId: z.string(),
    status: z
      .number()
      .int()
      .nullable()
      .describe('What it was answered: 2xx done, 403 refused (read scope); null: no outcome recorded'),
    finishedAt: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' });

export const auditResponse = z.object({
  entries: z.array(auditEntrySchema),
  next: z.string().nullable().describe('Pass as `before` for the next (older) page; null at the end'),
});

export const auditQuery = z.object({
  limit: z
    .string()
    .regex(/^\d+$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().int().min(1, 'must be at least 1').max(500, 'must be at most 500'))
    .default(100),
  credential: z.string().trim().min(1).max(64).optional(),
  before: z.iso.datetime({ message: 'must be an ISO date-time (a previous page’s `next`)' }).optional(),
});

const credentialRoute = createRoute({
  ...adminRoute,
  method: 'get',
  path: '/credential',
  summary: 'The admin credential this request was made with: its name and scope',
  responses: { 200: jsonResponse(credentialResponse, 'The credential'), ...errorResponses('UNAUTHORIZED') },
});

const auditRoute = createRoute({
  ...adminRoute,
  method: 'get',
  path: '/audit',
  summary: 'The audit log: every admin write (who, what, when, from where, how it ended), newest first',
  request: { query: auditQuery },
  responses: {
    200: jsonResponse(auditResponse, 'A page of entries'),
    ...errorResponses('UNAUTHORIZED', 'VALIDATION_FAILED'),
  },
});

export const liftedResponse = z
  .object({
    lifted: z.string().describe('The client address whose count was cleared, or `all`'),
  })
  .meta({ id: 'LockoutLifted' });

const liftRoute = createRoute({
  ...adminRoute,
  method: 'delete',
  path: '/lockouts/{address}',
  summary:
    'Lifts the wrong-credential count of one client address (its 429s end at once); audited. `all` lifts every one',
  request: {
    params: z.object({
      address: z
        .string()
        .transform((value, ctx) => {
          const key = value === 'all' ? value : lockoutKey(value);
          if (!key)
            ctx.addIssue({ code: 'custom', message: 'must be an IPv4 or IPv6 address, unknown, or all' });
          return key ?? z.NEVER;
        })
        .describe('A client address as the audit log and the warning lines name it, `unknown`, or `all`'),
    }),
  },
  responses: {
    200: jsonResponse(liftedResponse, 'Lifted'),
    ...errorResponses('UNAUTHORIZED', 'FORBIDDEN', 'VALIDATION_FAILED'),
  },
});

export function adminAccessRoutes(audit: AuditLog, lockouts: Lockouts) {
  return openApiRoutes()
    .openapi(credentialRoute, (c) => {
      const credential = c.get('adminCredential');
      return c.json(
        { name: credential.name, scope: credential.scope, keyId: credentialKeyId(credential) },
        200,
      );
    })
    .openapi(auditRoute, async (c) => {
      const query = c.req.valid('query');
      const entries = await audit.list(query);
      const last = entries.at(-1);
      return c.json({ entries, next: entries.length === query.limit && last ? last.createdAt : null }, 200);
    })
    .openapi(liftRoute, async (c) => {
      const { address } = c.req.valid('param');
      noteAudit(c, { target: address });
      if (address === 'all') await lockouts.liftAll();
      else await lockouts.lift(address);
      logger.info(
        `[admin] "${c.get('adminCredential').name}" lifted the wrong-credential count of ${address === 'all' ? 'every address' : address}`,
      );
      return c.json({ lifted: address }, 200);
    });
}
