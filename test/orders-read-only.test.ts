/**
 * The demo's Orders page acting with a read admin credential (ADMIN_CREDENTIALS, its token in DEMO_ADMIN_TOKEN on
 * the demo's server): it lists orders and their events, and says why it cannot make payment links or re-send.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { demoSuite } from './harness.ts';

const token = `desk_${randomBytes(24).toString('hex')}`;
const demo = demoSuite('orders-read-only', {
  ADMIN_CREDENTIALS: `desk:read:${createHash('sha256').update(token).digest('hex')}`,
  DEMO_ADMIN_TOKEN: token,
});
const { shot } = demo;

test('with a read credential the Orders page lists orders and says why it cannot write', async () => {
  // A shopper's order, made through the public API as the widget makes one.
  const [product] = await demo.products();
  const made = await fetch(`${demo.url}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: demo.url, 'idempotency-key': randomUUID() },
    body: JSON.stringify({ product: product.id, returnUrl: `${demo.url}/thank-you` }),
  });
  assert.equal(made.status, 201);
  const { orderId } = (await made.json()) as { orderId: string };

  const { context, page } = await demo.open('/orders');
  const notice = page.locator('#admin-scope');
  await notice.waitFor();
  assert.match(
    (await notice.textContent()) ?? '',
    /admin credential "desk", whose scope is read.*payment links and re-sending events change state and need a write credential/,
  );
  assert.ok(await page.getByRole('button', { name: 'Create link' }).isDisabled(), 'no link can be made');

  // The list works: the shopper's order, with the events sent about it.
  const row = page.locator(`tr[data-external-id="${orderId}"]`);
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', new RegExp(product.name));
  await row.locator('summary').click();
  const resend = row.getByRole('button', { name: 'Re-send' }).first();
  await resend.waitFor();
  assert.ok(await resend.isDisabled(), 'no event can be re-sent');
  await shot(page, 'orders-read-only', { fullPage: true });

  // What the backend answers a write with this credential, through the same proxy the page uses.
  const refused = await fetch(`${demo.url}/demo-admin/payment-links`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Not allowed', currency: 'EUR', amount: '5.00' }),
  });
  assert.equal(refused.status, 403);
  const { error } = (await refused.json()) as { error: { code: string; message: string } };
  assert.equal(error.code, 'FORBIDDEN');
  assert.match(error.message, /"desk" has the read scope/);

  assert.ok(!(await page.content()).includes(token), 'the credential stays on the server');
  await context.close();
});
