/** The rotation and admin-credential variables as an operator writes them: what is accepted, what is refused. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tokenSha256 } from '../src/admin/credentials.ts';
import { loadConfig } from '../src/config.ts';
import { acceptedSecrets } from '../src/secrets/keyring.ts';
import { documentedSamples } from '../src/secrets/samples.ts';
import { liveEnv, problemsOf } from './config-env.ts';

const { ADMIN_TOKEN: _token, ...liveWithoutToken } = liveEnv;
const live = {
  ...liveWithoutToken,
  RAMP_SECRET_KEY: 'sk_live_new-0123456789',
  PAY_WEBHOOK_SECRET: 'whsec_new-0123456789',
  CHECKOUT_TOKEN_SECRET: 'a-new-checkout-secret-long-enough',
  ADMIN_CREDENTIALS: `support:read:${tokenSha256('s')}`,
};

describe('rotation variables', () => {
  test('previous values, newest first, accepted until their end; the current one first', () => {
    const config = loadConfig({
      ...live,
      CHECKOUT_TOKEN_SECRET_PREVIOUS: ' an-older-checkout-secret-1 , the-oldest-checkout-secret ',
      CHECKOUT_TOKEN_SECRET_PREVIOUS_UNTIL: '2030-01-01T00:00:00Z',
      PAY_WEBHOOK_SECRET_PREVIOUS: 'whsec_old-0123456789',
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
    assert.deepEqual(acceptedSecrets(config.secrets.payWebhook, Date.now()), [
      'whsec_new-0123456789',
      'whsec_old-0123456789',
    ]);
    assert.deepEqual(acceptedSecrets(config.secrets.rampSecret, Date.now()), ['sk_live_new-0123456789']);
  });

  test('a previous value without a current one, an end without previous values, a bad end: each named', () => {
    const { MERCHANT_WEBHOOK_SECRET: _none, ...env } = { ...live, MERCHANT_WEBHOOK_SECRET: '' };
    const problems = problemsOf({
      ...env,
      MERCHANT_WEBHOOK_SECRET_PREVIOUS: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      RAMP_SECRET_KEY_PREVIOUS_UNTIL: '2030-01-01',
      PAY_WEBHOOK_SECRET_PREVIOUS: 'whsec_old-0123456789',
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

describe('live secrets that would open something', () => {
  test('every documented sample, in every secret variable, is refused by name with the fix', () => {
    const variables = [
      'RAMP_SECRET_KEY',
      'PAY_API_KEY',
      'PAY_WEBHOOK_SECRET',
      'CHECKOUT_TOKEN_SECRET',
      'ADMIN_TOKEN',
      'METRICS_TOKEN',
      'CHECKOUT_TOKEN_SECRET_PREVIOUS',
      'PAY_WEBHOOK_SECRET_PREVIOUS',
      'RAMP_SECRET_KEY_PREVIOUS',
    ];
    for (const sample of documentedSamples) {
      for (const name of variables) {
        const problems = problemsOf({ ...live, [name]: sample });
        assert.match(
          problems,
          new RegExp(`^${name}\\b.*(sample|too short|at least).*`, 'm'),
          `${name}=${sample}`,
        );
      }
    }
    assert.match(
      problemsOf({ ...live, MERCHANT_WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
      /^MERCHANT_WEBHOOK_SECRET is a sample value .* Fix: make one with `echo whsec_/m,
    );
    assert.match(
      problemsOf({
        ...live,
        PAY_WEBHOOK_SECRET_PREVIOUS: 'whsec_old-0123456789,<the old PAY_WEBHOOK_SECRET>',
      }),
      /^PAY_WEBHOOK_SECRET_PREVIOUS \(value 2\) is a placeholder/m,
    );
  });

  test('an ADMIN_CREDENTIALS hash of a sample token, or of another secret: refused, the token not printed', () => {
    for (const token of ['foo', 'bar', 'change-me-to-another-long-random-string']) {
      const problems = problemsOf({ ...live, ADMIN_CREDENTIALS: `ops:write:${tokenSha256(token)}` });
      assert.match(
        problems,
        /ADMIN_CREDENTIALS entry 1 \("ops"\) is the SHA-256 of a token printed in the documentation/,
      );
    }
    const reused = problemsOf({
      ...live,
      ADMIN_CREDENTIALS: `ops:write:${tokenSha256(live.CHECKOUT_TOKEN_SECRET)}`,
    });
    assert.match(reused, /entry 1 \("ops"\) is the SHA-256 of CHECKOUT_TOKEN_SECRET's value/);
    assert.doesNotMatch(reused, new RegExp(live.CHECKOUT_TOKEN_SECRET));
    const twoNames = problemsOf({
      ...live,
      ADMIN_CREDENTIALS: `ops:write:${tokenSha256('x'.repeat(32))},desk:read:${tokenSha256('x'.repeat(32))}`,
    });
    assert.match(twoNames, /entry 2 \("desk"\) has the same hash as "ops"/);
  });

  test('one value in two settings, or one too short, is refused naming both; a rotation repeating its own is not', () => {
    const shared = problemsOf({
      ...live,
      CHECKOUT_TOKEN_SECRET: live.PAY_WEBHOOK_SECRET.padEnd(16, '0'),
      PAY_WEBHOOK_SECRET: live.PAY_WEBHOOK_SECRET.padEnd(16, '0'),
    });
    assert.match(shared, /^CHECKOUT_TOKEN_SECRET has the same value as PAY_WEBHOOK_SECRET/m);
    assert.match(
      problemsOf({ ...live, RAMP_SECRET_KEY_PREVIOUS: live.PAY_WEBHOOK_SECRET }),
      /^RAMP_SECRET_KEY_PREVIOUS has the same value as PAY_WEBHOOK_SECRET/m,
    );
    assert.match(
      problemsOf({ ...live, RAMP_SECRET_KEY: 'sk_live_abc' }),
      /^RAMP_SECRET_KEY is 11 characters, too short/m,
    );
    assert.match(problemsOf({ ...live, PAY_API_KEY: 'xxx' }), /^PAY_API_KEY is a sample value/m);
    // A previous value equal to its own current one is no sharing (it is simply not listed twice).
    loadConfig({ ...live, PAY_WEBHOOK_SECRET_PREVIOUS: live.PAY_WEBHOOK_SECRET });
  });

  test('the sandbox keys: all four together (a shared sandbox) start; one beside real keys is refused', () => {
    const sandboxKeys = {
      RAMP_PUBLIC_KEY: 'pk_sandbox_demo',
      RAMP_SECRET_KEY: 'sk_sandbox_demo',
      PAY_API_KEY: 'pay_sandbox_demo',
      PAY_WEBHOOK_SECRET: 'whsec_sandbox_demo',
    };
    assert.equal(loadConfig({ ...live, ...sandboxKeys }).mode, 'live');
    assert.match(
      problemsOf({ ...live, PAY_WEBHOOK_SECRET: 'whsec_sandbox_demo' }),
      /^PAY_WEBHOOK_SECRET is the sandbox's demo key, printed in the README, beside real upstream keys/m,
    );
  });

  test('the sandbox (no keys) keeps its defaults and the sample catalog', () => {
    const sandbox = loadConfig({});
    assert.equal(sandbox.mode, 'sandbox');
    assert.match(sandbox.productsFile ?? '', /data\/products\.json$/);
  });
});

describe('live mode needs the merchant’s catalog', () => {
  test('PRODUCTS_FILE unset or the sample catalog: refused with one sentence naming the fix', () => {
    const { PRODUCTS_FILE: _file, ...unset } = live;
    assert.match(
      problemsOf(unset),
      /^PRODUCTS_FILE is not set, and live mode does not sell the sample catalog\. Fix: set PRODUCTS_FILE to your catalog \(a JSON file, see data\/products\.json\), or PRODUCTS_FILE=none for checkouts priced by checkout tokens only\.$/m,
    );
    const sample = fileURLToPath(new URL('../data/products.json', import.meta.url));
    assert.match(problemsOf({ ...live, PRODUCTS_FILE: sample }), /^PRODUCTS_FILE is the sample catalog/m);
  });

  test('PRODUCTS_FILE=none: no catalog, token-priced checkouts only', () => {
    assert.equal(loadConfig({ ...live, PRODUCTS_FILE: 'none' }).productsFile, null);
  });
});
