/**
 * `GET /api/admin/upstream-budget` over HTTP: the limit this backend allows itself and the calls it has spent,
 * growing when a quote goes to the upstream (what the console's Health page shows).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { json, type Stack, startStack, testSecrets } from './support.ts';

interface BudgetView {
  budget: {
    perSecond: number;
    inWindow: number;
    maxInWindow: number;
    granted: number;
    waited: number;
    refused: number;
    throttledByUpstream: number;
  } | null;
}

describe('the upstream budget over the admin API', () => {
  let stack: Stack;
  const read = async () => {
    const response = await stack.api('/api/admin/upstream-budget', {
      headers: { authorization: `Bearer ${testSecrets.adminToken}` },
    });
    assert.equal(response.status, 200);
    const { budget } = await json<BudgetView>(response);
    assert.ok(budget, 'the backend spends an upstream budget');
    return budget;
  };

  before(async () => {
    stack = await startStack({ env: { QUOTE_DERIVE: 'off' } });
  });
  after(() => stack.close());

  test('reports the limit (UPSTREAM_BUDGET, 90 by default) and calls granted that grow with a quote', async () => {
    const first = await read();
    assert.equal(first.perSecond, 90);
    assert.equal(first.refused, 0);
    assert.equal(first.throttledByUpstream, 0);
    const quote = await stack.api('/api/quotes/buy', {
      method: 'POST',
      json: { paymentMethod: 'creditcard', country: 'DE', fiat: 'EUR', crypto: 'BTC', fiatAmount: '100' },
    });
    assert.equal(quote.status, 200, await quote.clone().text());
    const next = await read();
    assert.ok(next.granted > first.granted, `granted ${first.granted} → ${next.granted}`);
    assert.ok(next.maxInWindow >= 1 && next.maxInWindow <= next.perSecond);
  });

  test('is refused without an admin credential', async () => {
    const response = await stack.api('/api/admin/upstream-budget');
    assert.equal(response.status, 401);
  });
});
