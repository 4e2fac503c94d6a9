/**
 * The merchant console's serving and sessions (routes/console.ts, admin/console-sessions.ts): the page under a
 * nonce'd CSP with no inline script, its compressed assets, sign-in with a named credential into an HttpOnly
 * SameSite=Strict cookie that lets the console's requests (with their CSRF token) and nothing else into the admin
 * routes, a read session refused writes, wrong credentials counted toward the lockout, sign-out, CONSOLE=off.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { tokenSha256 } from '../src/admin/credentials.ts';
import { json, type Stack, startStack } from './support.ts';

const tokens = {
  desk: `cca_${randomBytes(32).toString('hex')}`,
  owner: `cca_${randomBytes(32).toString('hex')}`,
};
const credentials = `desk:read:${tokenSha256(tokens.desk)},owner:write:${tokenSha256(tokens.owner)}`;

interface SessionAnswer {
  credential: { name: string; scope: string };
  csrf: string;
  csrfHeader: string;
  expiresAt: string;
}

async function signIn(stack: Stack, token: string) {
  const response = await stack.api('/console/session', { method: 'POST', json: { token } });
  assert.equal(response.status, 201, await response.clone().text());
  const cookie = response.headers.get('set-cookie') ?? '';
  const session = await json<SessionAnswer>(response);
  return { cookie, session, sent: cookie.split(';')[0] ?? '' };
}

describe('the console', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { ADMIN_CREDENTIALS: credentials, ADMIN_AUTH_MAX_FAILURES: '3' } });
  });
  after(() => stack.close());

  test('its page carries a nonce policy, loads one module script by nonce and no inline script', async () => {
    const response = await stack.api('/console');
    assert.equal(response.status, 200);
    const policy = response.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    assert.ok(nonce, policy);
    assert.match(policy, /script-src 'nonce-[^']+' 'strict-dynamic'/);
    assert.match(policy, /default-src 'none'/);
    assert.match(policy, /frame-ancestors 'self'/);
    assert.equal(response.headers.get('x-frame-options'), 'SAMEORIGIN');
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/);
    const page = await response.text();
    const scripts = [...page.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.ok((scripts[0]?.[1] ?? '').includes(`nonce="${nonce}"`));
    assert.equal(scripts[0]?.[2], '', 'no inline script');
    const src = /src="([^"]+)"/.exec(scripts[0]?.[1] ?? '')?.[1] ?? '';
    const slash = await stack.api('/console/', { redirect: 'manual' });
    assert.equal(slash.status, 301);
    assert.equal(slash.headers.get('location'), '/console');
    const asset = await stack.api(src, { headers: { 'accept-encoding': 'br' } });
    assert.equal(asset.status, 200);
    assert.equal(asset.headers.get('content-encoding'), 'br');
    assert.equal(asset.headers.get('cache-control'), 'no-cache');
    const chunk = /console-orders-page-[\w-]+\.js/.exec(await asset.text())?.[0];
    assert.ok(chunk, 'the entry loads the orders page as a chunk of its own');
    const loaded = await stack.api(`/console/assets/${chunk}`);
    assert.equal(loaded.status, 200);
    assert.match(loaded.headers.get('cache-control') ?? '', /immutable/);
  });

  test('a read credential signs in to a session that reads the admin routes and is refused writes', async () => {
    const { cookie, session, sent } = await signIn(stack, tokens.desk);
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /SameSite=Strict/i);
    assert.match(cookie, /Max-Age=\d+/);
    assert.doesNotMatch(cookie, /Secure/i, 'plain http: no Secure flag');
    assert.deepEqual(session.credential, {
      name: 'desk',
      scope: 'read',
      keyId: tokenSha256(tokens.desk).slice(0, 8),
    });

    const headers = { cookie: sent, [session.csrfHeader]: session.csrf };
    const who = await stack.api('/api/admin/credential', { headers });
    assert.equal(who.status, 200);
    assert.equal((await json<{ name: string }>(who)).name, 'desk');

    // The cookie alone (a link, a form, another tab's navigation) lets nothing in.
    const cookieOnly = await stack.api('/api/admin/credential', { headers: { cookie: sent } });
    assert.equal(cookieOnly.status, 401);
    const wrongToken = await stack.api('/api/admin/credential', {
      headers: { cookie: sent, [session.csrfHeader]: 'x'.repeat(32) },
    });
    assert.equal(wrongToken.status, 401);

    const write = await stack.api('/api/admin/payment-links', {
      method: 'POST',
      headers,
      json: { name: 'Not allowed', currency: 'EUR', amount: '5.00' },
    });
    assert.equal(write.status, 403);

    const audit = await json<{ entries: Array<{ credential: string; action: string; status: number }> }>(
      await stack.api('/api/admin/audit', { headers }),
    );
    const actions = audit.entries.map((entry) => `${entry.credential} ${entry.action} ${entry.status}`);
    assert.ok(actions.includes('desk POST /api/admin/payment-links 403'), actions.join('\n'));
    assert.ok(actions.includes('desk POST /console/session 201'), actions.join('\n'));

    // Signed out: the same cookie and token no longer count.
    const out = await stack.api('/console/session', {
      method: 'DELETE',
      headers: { cookie: sent, origin: stack.backendUrl },
    });
    assert.equal(out.status, 204);
    assert.match(out.headers.get('set-cookie') ?? '', /cc_console=;/);
    assert.equal((await stack.api('/api/admin/credential', { headers })).status, 401);
    assert.equal((await stack.api('/console/session', { headers: { cookie: sent } })).status, 401);
  });

  test('a write credential’s session writes, audited under its name', async () => {
    const { session, sent } = await signIn(stack, tokens.owner);
    const headers = { cookie: sent, [session.csrfHeader]: session.csrf };
    const lifted = await stack.api('/api/admin/lockouts/203.0.113.9', { method: 'DELETE', headers });
    assert.equal(lifted.status, 200);
    const audit = await json<{ entries: Array<{ credential: string; action: string; status: number }> }>(
      await stack.api('/api/admin/audit?credential=owner', { headers }),
    );
    assert.equal(audit.entries[0]?.action, 'DELETE /api/admin/lockouts/203.0.113.9');
    assert.equal(audit.entries[0]?.status, 200);
  });

  test('behind a proxy that ends TLS the cookie is Secure', async () => {
    const response = await stack.api('/console/session', {
      method: 'POST',
      headers: { 'x-forwarded-proto': 'https' },
      json: { token: tokens.owner },
    });
    assert.equal(response.status, 201);
    assert.match(response.headers.get('set-cookie') ?? '', /; Secure/);
  });

  test('a form another site posts is refused by its Origin', async () => {
    const response = await stack.api('/console/session', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'text/plain' },
      body: JSON.stringify({ token: tokens.owner }),
    });
    assert.equal(response.status, 403);
    assert.equal((await json<{ error: { code: string } }>(response)).error.code, 'FORBIDDEN');
    assert.equal(response.headers.get('set-cookie'), null);
  });

  test('wrong credentials at sign-in count toward the admin lockout', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await stack.api('/console/session', { method: 'POST', json: { token: `nope-${i}` } });
      statuses.push(response.status);
    }
    assert.deepEqual(statuses.slice(0, 3), [401, 401, 401]);
    assert.equal(statuses[3], 429);
    // The same count as the admin routes': a wrong Bearer token is refused 429 too now.
    const bearer = await stack.api('/api/admin/credential', { headers: { authorization: 'Bearer nope' } });
    assert.equal(bearer.status, 429);
    // A right credential still signs in (it is never locked out).
    await signIn(stack, tokens.owner);
  });
});

describe('CONSOLE=off', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { ADMIN_CREDENTIALS: credentials, CONSOLE: 'off' } });
  });
  after(() => stack.close());

  test('serves nothing at /console', async () => {
    assert.equal((await stack.api('/console')).status, 404);
    const response = await stack.api('/console/session', { method: 'POST', json: { token: tokens.owner } });
    assert.equal(response.status, 404);
  });
});
