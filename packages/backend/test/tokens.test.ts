import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../src/errors.ts';
import {
  createCheckoutToken,
  createCustomerToken,
  verifyCheckoutToken,
  verifyCustomerToken,
} from '../src/index.ts';

const secret = 'test-checkout-secret-0123456789';
const now = Date.parse('2026-11-22T10:00:00Z');

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.code : 'not an AppError';
  }
  return 'no error';
};

test('a checkout token round-trips and carries typ, iat and exp', () => {
  const token = createCheckoutToken(
    { name: 'Hoodie', price: 49.9, currency: 'eur', reference: 'cart-1', expiresInSeconds: 600 },
    secret,
    now,
  );
  assert.match(token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  const payload = verifyCheckoutToken(token, secret, now + 1000);
  assert.equal(payload.typ, 'checkout');
  assert.equal(payload.price, '49.9');
  assert.equal(payload.currency, 'EUR');
  assert.equal(payload.reference, 'cart-1');
  assert.equal(payload.exp - payload.iat, 600);
});

test('a tampered payload, a wrong secret or garbage is TOKEN_INVALID', () => {
  const token = createCheckoutToken(
    { name: 'Hoodie', price: '49.00', currency: 'EUR', expiresInSeconds: 600 },
    secret,
    now,
  );
  const [body, signature] = token.split('.') as [string, string];
  const forged = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
  forged['price'] = '0.01';
  const forgedToken = `${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
  assert.equal(
    code(() => verifyCheckoutToken(forgedToken, secret, now)),
    'TOKEN_INVALID',
  );
  assert.equal(
    code(() => verifyCheckoutToken(token, 'another-secret-0123456789', now)),
    'TOKEN_INVALID',
  );
  assert.equal(
    code(() => verifyCheckoutToken('not-a-token', secret, now)),
    'TOKEN_INVALID',
  );
  assert.equal(
    code(() => verifyCheckoutToken(`${token}.x`, secret, now)),
    'TOKEN_INVALID',
  );
});

test('an expired token is TOKEN_EXPIRED; a customer token is not a checkout token', () => {
  const token = createCheckoutToken(
    { name: 'Hoodie', price: '49.00', currency: 'EUR', expiresInSeconds: 60 },
    secret,
    now,
  );
  assert.equal(
    code(() => verifyCheckoutToken(token, secret, now + 61_000)),
    'TOKEN_EXPIRED',
  );
  const customer = createCustomerToken({ customerId: 'cus_1', expiresInSeconds: 60 }, secret, now);
  assert.equal(verifyCustomerToken(customer, secret, now).customerId, 'cus_1');
  assert.equal(
    code(() => verifyCheckoutToken(customer, secret, now)),
    'TOKEN_INVALID',
  );
  assert.equal(
    code(() => verifyCustomerToken(token, secret, now)),
    'TOKEN_INVALID',
  );
});

test('minting refuses bad input and a short secret', () => {
  assert.throws(() =>
    createCheckoutToken({ name: 'X', price: '-1', currency: 'EUR', expiresInSeconds: 60 }, secret),
  );
  assert.throws(() =>
    createCheckoutToken({ name: 'X', price: '1.00', currency: 'EURO', expiresInSeconds: 60 }, secret),
  );
  assert.throws(() => createCustomerToken({ customerId: 'c', expiresInSeconds: 60 }, 'short'));
});
