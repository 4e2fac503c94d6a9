/**
 * Each fault the sandbox can inject (an error status, a throttle, a slow answer, an HTML challenge page, a cut-off
 * or an empty body) on the payments API and the ramp catalog, mapped to the documented error. Quotes have their
 * own cases in quotes.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createCustomerToken } from '../src/index.ts';
import { newKey, postOrder, productsFile } from './order-fixtures.ts';
import { json, type Stack, startStack, testSecrets } from './support.ts';

interface ErrorBody {
  error: { code: string; message: string; requestId: string };
}

let stack: Stack;
before(async () => {
  // Long enough that an injected error is answered in time on a loaded machine (at 400 ms a 500 was once a 504).
  stack = await startStack({ env: { PRODUCTS_FILE: productsFile, UPSTREAM_TIMEOUT_MS: '2000' } });
});
after(() => stack.close());

/** Injects `fault` on `route`, sends, clears the fault, and checks the status, code and that nothing leaked. */
async function expectFault(
  route: string,
  fault: Record<string, unknown>,
  send: () => Promise<Response>,
  status: number,
  code: string,
) {
  await stack.control('POST', '/faults', { route, ...fault });
  let response: Response;
  try {
    response = await send();
  } finally {
    await stack.control('DELETE', '/faults');
  }
  const label = `${route} ${JSON.stringify(fault)}`;
  assert.equal(response.status, status, label);
  const body = await json<ErrorBody>(response);
  assert.equal(body.error.code, code, label);
  assert.ok(body.error.requestId, label);
  assert.doesNotMatch(body.error.message, /Injected fault|<html|cdn-cgi|crypto_amount/i, label);
  if (status === 503) assert.ok(Number(response.headers.get('retry-after')) >= 1, label);
}

const faults: Array<[fault: Record<string, unknown>, status: number, code: string]> = [
  [{ status: 500 }, 502, 'UPSTREAM_ERROR'],
  [{ body: 'html403' }, 502, 'UPSTREAM_ERROR'],
  [{ status: 200, body: 'malformed' }, 502, 'UPSTREAM_ERROR'],
  [{ status: 200, body: 'empty' }, 502, 'UPSTREAM_ERROR'],
  [{ status: 429 }, 503, 'UPSTREAM_BUSY'],
  [{ latencyMs: 5000 }, 504, 'UPSTREAM_TIMEOUT'],
];

/** Every fault of the table on `route`, one after the other; `send(n)` makes the n-th request. */
async function expectEveryFault(route: string, send: (n: number) => Promise<Response>) {
  for (const [index, [fault, status, code]] of faults.entries()) {
    await expectFault(route, fault, () => send(index), status, code);
  }
}

describe('upstream faults', () => {
  test('creating an order', () =>
    expectEveryFault('/pay-api/v1/orders', () => postOrder(stack, { product: 'hoodie' }, newKey())));

  test('listing orders (admin)', () =>
    expectEveryFault('/pay-api/v1/merchants/orders', () =>
      stack.api('/api/admin/upstream-orders', {
        headers: { authorization: `Bearer ${testSecrets.adminToken}` },
      }),
    ));

  test('creating a deposit address (a new customer each time, so nothing is reused)', () =>
    expectEveryFault('/pay-api/v1/payment-routes', (n) => {
      const customerToken = createCustomerToken(
        { customerId: `faulty-${n}` },
        testSecrets.checkoutTokenSecret,
      );
      return stack.api('/api/deposit-addresses', { method: 'POST', json: { customerToken, chain: 'base' } });
    }));

  test('reading the ramp catalog (a failed read is not cached; one transient failure is retried)', async () => {
    await expectEveryFault('/ramp/api/v1/merchant/get_supported', () => stack.api('/api/catalog?country=DE'));
    await stack.control('POST', '/faults', {
      route: '/ramp/api/v1/merchant/get_supported',
      status: 503,
      times: 1,
    });
    assert.equal((await stack.api('/api/catalog?country=DE')).status, 200);
  });
});
