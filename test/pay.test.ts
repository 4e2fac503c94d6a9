/** Paying for a product: the whole chain from the shop to the thank-you page and the merchant's Orders page. */
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  closeLeftovers,
  type DemoServer,
  launchBrowser,
  newContext,
  recordedEvents,
  screenshots,
  startDemo,
} from './harness.ts';
import { type PaymentKind, simulatePayment } from './pay-page.ts';

let server: DemoServer;
let browser: Browser;
const shot = screenshots('pay');

before(async () => {
  [server, browser] = await Promise.all([startDemo('pay'), launchBrowser()]);
});

afterEach(() => closeLeftovers('pay'));

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function firstProduct(): Promise<{ id: string; name: string }> {
  const { products } = (await (await fetch(`${server.url}/api/products`)).json()) as {
    products: Array<{ id: string; name: string }>;
  };
  assert.ok(products[0], 'the catalog has a product');
  return products[0];
}

/** Clicks "Pay with crypto" and returns the order id from the element's `checkout-order` event. */
async function startPayment(page: Page): Promise<string> {
  await page
    .locator('crypto-checkout')
    .getByRole('button', { name: /pay with crypto/i })
    .click();
  await page.waitForFunction(() =>
    (JSON.parse(sessionStorage.getItem('e2e-events') ?? '[]') as Array<{ name: string }>).some(
      (e) => e.name === 'checkout-order',
    ),
  );
  const [order] = await recordedEvents(page, 'checkout-order');
  const orderId = order?.detail['orderId'];
  assert.equal(typeof orderId, 'string');
  return orderId as string;
}

test('pay: product → payment page in the iframe → exact payment → success → thank-you page → Orders page', async () => {
  const product = await firstProduct();
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto(`${server.url}/`);
  await page.getByRole('link', { name: new RegExp(product.name) }).click();
  await page.waitForURL(`**/products/${product.id}`);
  await page
    .locator('crypto-checkout')
    .getByRole('button', { name: /pay with crypto/i })
    .waitFor();
  await shot(page, 'product');

  // Name and e-mail given to the element are passed on, so the payment page does not ask for them again.
  const checkout = page.locator('crypto-checkout');
  await checkout.getByLabel(/^Name/).fill('Ada Lovelace');
  await checkout.getByLabel(/^E-mail/).fill('ada@example.com');
  const orderId = await startPayment(page);
  // display="auto" on a wide screen: the payment page opens in a modal dialog, in an iframe.
  const dialog = page.locator('crypto-checkout dialog[open]');
  await dialog.waitFor();
  const frame = page.frameLocator('crypto-checkout iframe');
  await frame.locator('body').waitFor();
  await frame.getByText(product.name).first().waitFor();
  await frame.getByRole('group', { name: 'Pay with' }).waitFor();
  assert.equal(
    await frame.getByLabel('Full name').count(),
    0,
    'the payment page asked for the details again',
  );
  await shot(page, 'payment-page-in-modal');

  const landed = page.waitForURL('**/thank-you?**');
  await simulatePayment(frame, 'exact');
  // The element shows success before it moves on (it may move on quickly: catch it if we can).
  await page
    .locator('crypto-checkout [part~="status"].paid')
    .waitFor({ timeout: 3000 })
    .then(() => shot(page, 'widget-success'))
    .catch(() => undefined);
  await landed;

  const url = new URL(page.url());
  assert.equal(url.searchParams.get('orderId'), orderId);
  assert.equal(url.searchParams.get('status'), 'paid');
  const statuses = await recordedEvents(page, 'checkout-status');
  assert.ok(
    statuses.some((e) => e.detail['status'] === 'paid' && e.detail['final'] === true),
    'the element saw the paid status',
  );
  const complete = await recordedEvents(page, 'checkout-complete');
  assert.equal(complete.length, 1, 'checkout-complete fired once');
  assert.equal(complete[0]?.detail['orderId'], orderId);
  assert.equal(complete[0]?.detail['status'], 'paid');

  // The thank-you page shows the status the shop's server has, not the one in the URL.
  await page.locator('#result[data-status="paid"]').waitFor();
  await page.getByRole('heading', { name: /payment received/i }).waitFor();
  await shot(page, 'thank-you');

  await page.getByRole('link', { name: 'See it in Orders' }).click();
  const row = page.locator(`tr[data-external-id="${orderId}"]`);
  await row.waitFor();
  assert.equal(await row.locator('.status').textContent(), 'paid');
  await row.locator('summary').click();
  assert.match((await row.locator('summary').textContent()) ?? '', /^1 payment/);
  await shot(page, 'orders-page', { fullPage: true });
  await context.close();
});

test('underpaid, overpaid and expired payments end in the right state on screen', async () => {
  const product = await firstProduct();
  const outcome = async (kind: PaymentKind) => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.url}/products/${product.id}?display=inline`);
    const orderId = await startPayment(page);
    const frame = page.frameLocator('crypto-checkout iframe');
    await frame.getByText(product.name).first().waitFor();
    await simulatePayment(frame, kind);
    return { context, page, orderId };
  };

  // Underpaid is not final: the payer stays on the page, told that part of the payment arrived.
  {
    const { context, page } = await outcome('underpaid');
    await page.locator('crypto-checkout [part~="status"].underpaid').waitFor();
    assert.equal(new URL(page.url()).pathname, `/products/${product.id}`);
    assert.equal((await recordedEvents(page, 'checkout-complete')).length, 0);
    await shot(page, 'underpaid');
    await context.close();
  }

  // Overpaid and expired are final: the element completes and the thank-you page says which.
  for (const [kind, status, heading] of [
    ['overpaid', 'overpaid', /payment received/i],
    ['expire', 'expired', /expired/i],
  ] as const) {
    const { context, page, orderId } = await outcome(kind);
    await page.waitForURL('**/thank-you?**');
    assert.equal(new URL(page.url()).searchParams.get('orderId'), orderId);
    await page.locator(`#result[data-status="${status}"]`).waitFor();
    await page.getByRole('heading', { name: heading }).waitFor();
    const complete = await recordedEvents(page, 'checkout-complete');
    assert.equal(complete[0]?.detail['status'], status);
    await shot(page, `thank-you-${status}`);
    await context.close();
  }
});
