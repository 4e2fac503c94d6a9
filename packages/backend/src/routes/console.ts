/**
 * The merchant console at `/console` (docs/console.md): its page (one nonce'd module script, no inline script),
 * its built assets (packages/console, built into this package's `dist/console`, compressed once per build), and its
 * session: `POST /console/session` signs in with an admin credential (a wrong one counts toward the lockout, as on
 * the admin routes), `GET` says who is signed in with the CSRF token the console sends, `DELETE` signs out. Every
 * sign-in and sign-out is in the audit log. What the console then reads and writes are the admin routes themselves
 * (admin/access.ts lets a session in).
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Context, Hono } from 'hono';
import { csrf } from 'hono/csrf';
import { html } from 'hono/html';
import { HTTPException } from 'hono/http-exception';
import { z } from 'zod';
import type { wrongCredentialCount } from '../admin/access.ts';
import type { AuditLog } from '../admin/audit.ts';
import type { ConsoleSession, ConsoleSessions } from '../admin/console-sessions.ts';
import { csrfHeader, mountOf } from '../admin/console-sessions.ts';
import { credentialFor } from '../admin/credentials.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { AppError } from '../errors.ts';
import { clientAddress } from '../middleware/client-address.ts';
import { type Precompressed, precompress, sendPrecompressed } from '../precompressed.ts';
import { credentialKeyId } from '../secrets/previous-use.ts';

/** Where packages/console's build writes (from src/routes and dist/routes alike: this package's root). */
export const consoleAssetsDir = fileURLToPath(new URL('../../dist/console/', import.meta.url));

/** The entry's name (packages/console/vite.config.ts); chunks carry a content hash in theirs. */
const entryFile = 'console.js';
const assetName = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.(js|css)$/;

const signInBody = z.object({ token: z.string().trim().min(1, 'give an admin credential').max(512) });

interface Asset extends Precompressed {
  etag: string;
}

/** The session as the console reads it: who, with which scope, until when, and the token to send. */
const sessionView = (session: ConsoleSession) => ({
  credential: { name: session.credential, scope: session.scope, keyId: session.keyId },
  expiresAt: session.expiresAt,
  csrf: session.csrf,
  csrfHeader,
});

function consolePage(nonce: string, base: string, entry: string) {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><title>Console · crypto-checkout</title>
<style nonce="${nonce}">
  html { color-scheme: light dark; font: 15px/1.5 system-ui, sans-serif; }
  body { margin: 0; background: Canvas; color: CanvasText; }
  cc-console:not(:defined) { display: block; padding: 2rem; }
</style>
<script type="module" nonce="${nonce}" src="${entry}"></script>
</head><body><cc-console base="${base}"><noscript>The console needs JavaScript.</noscript></cc-console></body></html>`;
}

export function consoleRoutes(
  deps: AppDeps,
  audit: AuditLog,
  sessions: ConsoleSessions,
  failures: ReturnType<typeof wrongCredentialCount>,
  dir = consoleAssetsDir,
) {
  const cache = new Map<string, { mtimeMs: number; asset: Promise<Asset> }>();
  const assetOf = async (name: string): Promise<Asset | undefined> => {
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    const hit = cache.get(path);
    if (hit && hit.mtimeMs === info.mtimeMs) return hit.asset;
    const asset = readFile(path).then((raw) => ({
      etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"`,
      ...precompress(raw),
    }));
    cache.set(path, { mtimeMs: info.mtimeMs, asset });
    asset.catch(() => cache.delete(path));
    return asset;
  };

  /** Sign-in and sign-out are recorded like every admin write: who, from where, how it ended. */
  const record = async (
    c: Context<AppEnv>,
    action: string,
    who: { name: string; keyId: string | null; scope: 'read' | 'write' },
    status: number,
  ) => {
    const entry = await audit.begin({
      credential: who.name,
      keyId: who.keyId,
      scope: who.scope,
      action,
      clientIp: clientAddress(c),
      requestId: c.get('requestId'),
    });
    await audit.finish(entry, status);
  };

  const app = new Hono<AppEnv>();
  // A form another site posts (text/plain, a form encoding) is refused by its Origin; the console sends JSON,
  // which no other origin can send here without a preflight this backend never grants.
  const sameOrigin = csrf({
    origin: (origin, c) =>
      origin === new URL(deps.config.publicUrl).origin || origin === new URL(c.req.url).origin,
  });
  app.use('/session', async (c, next) => {
    try {
      await sameOrigin(c, next);
    } catch (error) {
      if (error instanceof HTTPException && error.status === 403)
        throw new AppError('FORBIDDEN', 'The console’s session is changed from its own page only.');
      throw error;
    }
  });

  const page = async (c: Context<AppEnv>) => {
    const base = mountOf(c);
    const entry = await assetOf(entryFile);
    if (!entry)
      throw new AppError(
        'NOT_FOUND',
        'The console is not built (npm run build -w packages/console), or this install ships without it.',
      );
    c.header('Cache-Control', 'no-store');
    // No `?v=`: the chunks import the entry by its bare name, and one URL keeps it one module (revalidated).
    const src = `${base}/console/assets/${entryFile}`;
    return c.html(consolePage(c.get('secureHeadersNonce') ?? '', base, src));
  };
  app.get('/', page);

  app.get('/assets/:file', async (c) => {
    const name = c.req.param('file');
    const asset = assetName.test(name) ? await assetOf(name) : undefined;
    if (!asset) throw new AppError('NOT_FOUND', 'No such console file.');
    const headers: Record<string, string> = {
      'Content-Type': name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
      ETag: asset.etag,
      // Chunks are named by their content; the entry is revalidated by its ETag.
      'Cache-Control': name === entryFile ? 'no-cache' : 'public, max-age=31536000, immutable',
    };
    if (c.req.header('if-none-match') === asset.etag) return c.body(null, 304, headers);
    return sendPrecompressed(c, asset, headers);
  });

  app.get('/session', async (c) => {
    c.header('Cache-Control', 'no-store');
    const session = await sessions.read(c);
    if (!session || !sessions.credentialOf(session))
      throw new AppError('UNAUTHORIZED', 'Not signed in to the console.');
    return c.json(sessionView(session), 200);
  });

  app.post('/session', async (c) => {
    c.header('Cache-Control', 'no-store');
    const parsed = signInBody.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success)
      throw new AppError('VALIDATION_FAILED', 'Give an admin credential as { "token": "…" }.', {
        issues: parsed.error.issues.map((issue) => ({
          path: issue.path.join('.') || 'body',
          message: issue.message,
        })),
      });
    const credential = credentialFor(deps.config.admin.credentials, parsed.data.token);
    if (!credential) {
      // The same count as a wrong Bearer token on the admin routes: past the limit, 429 here and there.
      return failures(c, async () => {
        throw new AppError('UNAUTHORIZED', 'That is not an admin credential of this backend.');
      });
    }
    const session = await sessions.begin(c, credential);
    await record(
      c,
      'POST /console/session',
      { name: credential.name, keyId: credentialKeyId(credential), scope: credential.scope },
      201,
    );
    return c.json(sessionView(session), 201);
  });

  app.delete('/session', async (c) => {
    const session = await sessions.read(c);
    await sessions.end(c);
    if (session)
      await record(
        c,
        'DELETE /console/session',
        { name: session.credential, keyId: session.keyId, scope: session.scope },
        204,
      );
    return c.body(null, 204);
  });

  return app;
}
