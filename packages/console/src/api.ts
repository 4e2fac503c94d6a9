/**
 * The console's calls to its backend: the admin routes with the session's CSRF token in a header (the cookie alone
 * lets nothing in), the session routes, and /readyz. Every failure is an `ApiError` carrying the backend's one
 * envelope `{ error: { code, message, requestId } }`.
 */

export interface Session {
  credential: { name: string; scope: 'read' | 'write'; keyId: string };
  expiresAt: string;
  csrf: string;
  csrfHeader: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Query = Record<string, string | number | undefined | null>;

const withQuery = (path: string, query: Query = {}) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
};

async function answer<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => undefined)) as
    | { error?: { code?: string; message?: string; requestId?: string } }
    | undefined;
  if (!response.ok) {
    const error = body?.error;
    throw new ApiError(
      response.status,
      error?.code ?? 'INTERNAL',
      error?.message ?? `The backend answered ${response.status}.`,
      error?.requestId ?? null,
    );
  }
  return body as T;
}

/** The session routes, before there is a session to send a token with. */
export class SessionApi {
  constructor(readonly base: string) {}

  current(): Promise<Session> {
    return fetch(`${this.base}/console/session`, { credentials: 'same-origin' }).then(answer<Session>);
  }

  signIn(token: string): Promise<Session> {
    return fetch(`${this.base}/console/session`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    }).then(answer<Session>);
  }

  signOut(): Promise<void> {
    return fetch(`${this.base}/console/session`, { method: 'DELETE', credentials: 'same-origin' }).then(
      answer<void>,
    );
  }
}

/** The admin routes as the signed-in console calls them. */
export class ConsoleApi {
  constructor(
    readonly base: string,
    readonly session: Session,
    /** Called when the backend says the session has ended (401), so the app can ask to sign in again. */
    private readonly onEnded: () => void,
  ) {}

  get canWrite(): boolean {
    return this.session.credential.scope === 'write';
  }

  private async call<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    const headers: Record<string, string> = { [this.session.csrfHeader]: this.session.csrf };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.base}${path}`, {
      method,
      credentials: 'same-origin',
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(signal ? { signal } : {}),
    });
    if (response.status === 401) this.onEnded();
    return answer<T>(response);
  }

  /** `GET /api/admin<path>`. */
  get<T>(path: string, query?: Query, signal?: AbortSignal): Promise<T> {
    return this.call<T>('GET', withQuery(`/api/admin${path}`, query), undefined, signal);
  }

  /** A write to `/api/admin<path>` (POST, PATCH, DELETE). */
  send<T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
    return this.call<T>(method, `/api/admin${path}`, body);
  }

  /** `/readyz`: the same JSON whether ready (200) or not (503). */
  async readiness<T>(signal?: AbortSignal): Promise<T> {
    const response = await fetch(`${this.base}/readyz`, { ...(signal ? { signal } : {}) });
    return (await response.json()) as T;
  }
}
