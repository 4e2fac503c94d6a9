/**
 * PRODUCTS_FILE=none, a live merchant with no catalog: every checkout is priced by a checkout token its server
 * mints, and the product routes answer what they answer for a catalog with nothing in it.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createCheckoutToken } from '../src/index.ts';
import { postOrder } from './order-fixtures.ts';
import { json, type Stack, startStack, testSecrets } from './support.ts';

let stack: Stack;
before(async () => {
  stack = await startStack({ env: { PRODUCTS_FILE: 'none' } });
});
after(() => stack.close());

test('the product routes answer an empty catalog; a product order is 404, a token-priced one is made', async () => {
  assert.equal(stack.config.mode, 'live');
  const list = await stack.api('/api/products');
  assert.equal(list.status, 200);
  assert.deepEqual(await list.json(), { products: [] });

  const one = await stack.api('/api/products/hoodie');
  assert.equal(one.status, 404);
  assert.equal((await json<{ error: { code: string } }>(one)).error.code, 'NOT_FOUND');
  assert.equal((await stack.api('/api/products/images/hoodie.png')).status, 404);

  const byProduct = await postOrder(stack, { product: 'hoodie' });
  assert.equal(byProduct.status, 404);
  assert.equal((await json<{ error: { code: string } }>(byProduct)).error.code, 'NOT_FOUND');

  const token = createCheckoutToken(
    { name: 'Custom cake', price: '12.50', currency: 'EUR', expiresInSeconds: 600 },
    testSecrets.checkoutTokenSecret,
  );
  const byToken = await postOrder(stack, { checkoutToken: token });
  assert.equal(byToken.status, 201);
  assert.deepEqual((await json<{ product: unknown }>(byToken)).product, {
    name: 'Custom cake',
    price: '12.50',
    currency: 'EUR',
  });
});
