/**
 * Console sign-ins: a named admin credential exchanged for a session, held by the browser in an HttpOnly,
 * SameSite=Strict cookie and in the store (any instance, SQLite or PostgreSQL) under the SHA-256 of the cookie's
 * value, so the store never holds what the cookie says. A session names its credential (name and key id, never the
 * token): a credential taken out of ADMIN_CREDENTIALS ends its sessions at once.
 *
 * The cookie alone authenticates nothing: every request the console makes also carries the session's CSRF token
 * in `X-Console-Csrf`, which a page of another origin cannot read or send (admin routes answer no CORS), and a
 * request without it is not let in (admin/access.ts).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Clock } from '../clock.ts';
import { credentialKeyId } from '../secrets/previous-use.ts';
import type { Store } from '../store/store.ts';
import type { AdminCredential, adminScopes } from './credentials.ts';

/** What a session reads of a request's context: the path below the mount (set by the app's first middleware). */
interface SessionEnv {
  Variables: { path: string };
}

export const sessionCookie = 'cc_console';
export const csrfHeader = 'X-Console-Csrf';

export interface ConsoleSession {
  createdAt: string;
  expiresAt: string;
  /** The credential's name and key id (admin-access.ts `keyId`): which one signed in. */
  credential: string;
  keyId: string;
  scope: (typeof adminScopes)[number];
  /** What the console sends in `X-Console-Csrf` with each request. */
  csrf: string;
}

const keyOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** Where the backend is mounted (`/checkout`), from the request's path and the path below the mount. */
export const mountOf = <E extends SessionEnv>(c: Context<E>) => {
  const below = c.get('path');
  return c.req.path.endsWith(below) ? c.req.path.slice(0, c.req.path.length - below.length) : '';
};

export function createConsoleSessions(options: {
  store: Store;
  clock: Clock;
  sessionMinutes: number;
  credentials: readonly AdminCredential[];
  /** PUBLIC_URL: an https one makes the cookie Secure. */
  publicUrl: string;
}) {
  const { store, clock, sessionMinutes, credentials, publicUrl } = options;
  const now = () => clock.now();

  const read = async <E extends SessionEnv>(c: Context<E>): Promise<ConsoleSession | undefined> => {
    const token = getCookie(c, sessionCookie);
    if (!token) return undefined;
    const session = await store.get<ConsoleSession>('console-sessions', keyOf(token));
    if (!session || Date.parse(session.expiresAt) <= now()) return undefined;
    return session;
  };

  /** The credential a session stands for, if it is still configured with the same token. */
  const credentialOf = (session: ConsoleSession) =>
    credentials.find(
      (credential) => credential.name === session.credential && credentialKeyId(credential) === session.keyId,
    );

  return {
    /** Starts a session for `credential`, sets its cookie (Secure over https), and returns it. */
    async begin<E extends SessionEnv>(c: Context<E>, credential: AdminCredential): Promise<ConsoleSession> {
      const token = randomBytes(32).toString('base64url');
      const session: ConsoleSession = {
        createdAt: new Date(now()).toISOString(),
        expiresAt: new Date(now() + sessionMinutes * 60_000).toISOString(),
        credential: credential.name,
        keyId: credentialKeyId(credential),
        scope: credential.scope,
        csrf: randomBytes(24).toString('base64url'),
      };
      await store.set('console-sessions', keyOf(token), session);
      setCookie(c, sessionCookie, token, {
        httpOnly: true,
        sameSite: 'Strict',
        // Over https: the public URL says so, or the request came so (directly, or by a TLS-ending proxy).
        secure:
          publicUrl.startsWith('https:') ||
          new URL(c.req.url).protocol === 'https:' ||
          c.req.header('x-forwarded-proto') === 'https',
        path: `${mountOf(c)}/`,
        maxAge: sessionMinutes * 60,
      });
      return session;
    },

    read,

    /**
     * The credential of the console's request: a live session whose CSRF token the request carries. Undefined
     * when the request has no session cookie; `ended` when it has one that no longer counts.
     */
    async credentialFor<E extends SessionEnv>(c: Context<E>): Promise<AdminCredential | 'ended' | undefined> {
      if (!getCookie(c, sessionCookie)) return undefined;
      const session = await read(c);
      const sent = c.req.header(csrfHeader) ?? '';
      if (!session || !sameText(sent, session.csrf)) return 'ended';
      return credentialOf(session) ?? 'ended';
    },

    credentialOf,

    async end<E extends SessionEnv>(c: Context<E>): Promise<void> {
      const token = getCookie(c, sessionCookie);
      if (token) await store.delete('console-sessions', keyOf(token));
      deleteCookie(c, sessionCookie, { path: `${mountOf(c)}/` });
    },
  };
}

export type ConsoleSessions = ReturnType<typeof createConsoleSessions>;
