/** The rotation and admin-credential variables as an operator writes them: what is accepted, what is refused. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tokenSha256 } from '../src/admin/credentials.ts';
import { loadConfig } from '../src/config.ts';
import { acceptedSecrets } from '../src/secrets/keyring.ts';
import { liveEnv, problemsOf } from './config-env.ts';

const { ADMIN_TOKEN: _token, ...liveWithoutToken } = liveEnv;
const live = {
  ...liveWithoutToken,
  RAMP_SECRET_KEY: 'sk_live_new',
  PAY_WEBHOOK_SECRET: 'whsec_new',
  CHECKOUT_TOKEN_SECRET: 'a-new-checkout-secret-long-enough',
  ADMIN_CREDENTIALS: `support:read:${tokenSha256('s')}`,
};

describe('rotation variables', () => {
  test('previous values, newest first, accepted until their end; the current one first', () => {
    const config = loadConfig({
      ...live,
      CHECKOUT_TOKEN_SECRET_PREVIOUS: ' an-older-checkout-secret-1 , the-oldest-checkout-secret ',
      CHECKOUT_TOKEN_SECRET_PREVIOUS_UNTIL: '2030-01-01T00:00:00Z',
      PAY_WEBHOOK_SECRET_PREVIOUS: 'whsec_old',
    });
    const keyring = config.secrets.checkoutToken;
    assert.deepEqual(acceptedSecrets(keyring, Date.parse('2029-12-31T23:59:59Z')), [
      'a-new-checkout-secret-long-enough',
      'an-older-checkout-secret-1',
      'the-oldest-checkout-secret',
    ]);
    assert.deepEqual(acceptedSecrets(keyring, Date.parse('2030-01-01T00:00:00Z')), [
      'a-new-checkout-secret-long-enough',
    ]);
    assert.deepEqual(acceptedSecrets(config.secrets.payWebhook, Date.now()), ['whsec_new', 'whsec_old']);
    assert.deepEqual(acceptedSecrets(config.secrets.rampSecret, Date.now()), ['sk_live_new']);
  });

  test('a previous value without a current one, an end without previous values, a bad end: each named', () => {
    const { MERCHANT_WEBHOOK_SECRET: _none, ...env } = { ...live, MERCHANT_WEBHOOK_SECRET: '' };
    const problems = problemsOf({
      ...env,
      MERCHANT_WEBHOOK_SECRET_PREVIOUS: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      RAMP_SECRET_KEY_PREVIOUS_UNTIL: '2030-01-01',
      PAY_WEBHOOK_SECRET_PREVIOUS: 'whsec_old',
      PAY_WEBHOOK_SECRET_PREVIOUS_UNTIL: 'next week',
      CHECKOUT_TOKEN_SECRET_PREVIOUS: 'short',
    });
    assert.match(problems, /MERCHANT_WEBHOOK_SECRET_PREVIOUS is set but MERCHANT_WEBHOOK_SECRET is not/);
    assert.match(problems, /RAMP_SECRET_KEY_PREVIOUS_UNTIL is set but RAMP_SECRET_KEY_PREVIOUS is not/);
    assert.match(problems, /PAY_WEBHOOK_SECRET_PREVIOUS_UNTIL: must be an ISO date/);
    assert.match(problems, /CHECKOUT_TOKEN_SECRET_PREVIOUS.*at least 16 characters/);
  });
});

describe('admin credentials', () => {
  test('named and scoped from hashes; the older ADMIN_TOKEN joins them as "admin", write', () => {
    const config = loadConfig({
      ...live,
      ADMIN_CREDENTIALS: `support:read:${tokenSha256('s').toUpperCase()}, ops:write:${tokenSha256('o')}`,
      ADMIN_TOKEN: 'an-admin-token-long-enough',
    });
    assert.deepEqual(
      config.admin.credentials.map((c) => [c.name, c.scope, c.sha256, c.legacy]),
      [
        ['support', 'read', tokenSha256('s'), false],
        ['ops', 'write', tokenSha256('o'), false],
        ['admin', 'write', tokenSha256('an-admin-token-long-enough'), true],
      ],
    );
    assert.equal(config.admin.maxFailuresPer15Minutes, 10);
  });

  test('live needs a credential; a token pasted for its hash, a name with two scopes: refused, the token not echoed', () => {
    const { ADMIN_CREDENTIALS: _c, ...none } = live;
    assert.match(problemsOf(none), /ADMIN_CREDENTIALS is missing \(or the older single ADMIN_TOKEN\)/);
    const pasted = problemsOf({ ...live, ADMIN_CREDENTIALS: 'ops:write:my-secret-token-value' });
    assert.match(pasted, /entry 1 is not name:read\|write:<64 hex characters of SHA-256>/);
    assert.doesNotMatch(pasted, /my-secret-token-value/);
    const twice = `ops:read:${tokenSha256('a')},ops:write:${tokenSha256('b')}`;
    assert.match(
      problemsOf({ ...live, ADMIN_CREDENTIALS: twice }),
      /"ops" is listed with both read and write/,
    );
  });

  test('with credentials and no ADMIN_TOKEN there is no "admin" token, not even on the sandbox', () => {
    const sandbox = loadConfig({ ADMIN_CREDENTIALS: `desk:read:${tokenSha256('d')}` });
    assert.equal(sandbox.adminToken, undefined);
    assert.deepEqual(
      sandbox.admin.credentials.map((c) => c.name),
      ['desk'],
    );
    assert.deepEqual(
      loadConfig({}).admin.credentials.map((c) => [c.name, c.scope]),
      [['admin', 'write']],
      'the sandbox alone keeps its own admin token',
    );
  });
});
