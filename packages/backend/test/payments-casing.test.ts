/**
 * No silent loss (issue 29): the sandbox's payments API answering in another casing (`payApiCasing: 'snake'`, a
 * shape no document describes) is refused over real HTTP with UPSTREAM_ERROR in our envelope, never shown as an
 * order list whose references, amounts and pagination are missing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { json, startStack, testSecrets } from './support.ts';

test('an order list in snake_case is a 502 UPSTREAM_ERROR, not orders without their references', async () => {
  const stack = await startStack();
  try {
    const admin = (path: string) =>
      stack.api(path, { headers: { authorization: `Bearer ${testSecrets.adminToken}` } });
    const created = await fetch(`${stack.sandboxUrl}/pay-api/v1/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': testSecrets.payApiKey },
      body: JSON.stringify({
        purchase: { name: 'Mug', price: '18.50', currency: 'EUR' },
        metadata: { externalId: 'ord_casing' },
      }),
    });
    assert.equal(created.status, 200);
    const readable = await admin('/api/admin/upstream-orders');
    assert.equal(readable.status, 200);
    const body = await json<{ orders: Array<{ externalId: string }>; pagination: { totalItems: number } }>(
      readable,
    );
    assert.equal(body.orders[0]?.externalId, 'ord_casing');
    assert.equal(body.pagination.totalItems, 1);

    await stack.control('PATCH', '/settings', { payApiCasing: 'snake' });
    const refused = await admin('/api/admin/upstream-orders');
    assert.equal(refused.status, 502);
    assert.equal((await json<{ error: { code: string } }>(refused)).error.code, 'UPSTREAM_ERROR');
  } finally {
    await stack.close();
  }
});
