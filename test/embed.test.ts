/** The ways to embed the element: the display modes, the script tag, the npm import, and a blocked iframe. */
import assert from 'node:assert/strict';
import { demoSuite, type Page, clickPay as pay, recordedEvents, test } from './harness.ts';
import { simulatePayment } from './pay-page.ts';

const demo = demoSuite('embed');
const { shot } = demo;

async function paidOnThankYouPage(page: Page): Promise<void> {
  await page.waitForURL('**/thank-you?**');
  assert.equal(new URL(page.url()).searchParams.get('status'), 'paid');
  await page.locator('#result[data-status="paid"]').waitFor();
}

test('modal, inline and redirect display modes each complete a payment', async () => {
  const [{ id: productId }] = await demo.products();
  const { context, page } = await demo.open();

  // modal: a dialog over the page with the payment page in it.
  await page.goto(`${demo.url}/products/${productId}?display=modal`);
  await pay(page);
  await page.locator('crypto-checkout dialog[open] iframe').waitFor();
  await shot(page, 'modal');
  await simulatePayment(page.frameLocator('crypto-checkout iframe'), 'exact');
  await paidOnThankYouPage(page);

  // inline: the payment page inside the element, no dialog.
  await page.goto(`${demo.url}/products/${productId}?display=inline`);
  await pay(page);
  await page.locator('crypto-checkout iframe').waitFor();
  assert.equal(await page.locator('crypto-checkout dialog').count(), 0);
  await shot(page, 'inline');
  await simulatePayment(page.frameLocator('crypto-checkout iframe'), 'exact');
  await paidOnThankYouPage(page);

  // redirect: the whole tab goes to the payment page, which sends the payer back when paid.
  await page.goto(`${demo.url}/products/${productId}?display=redirect`);
  await pay(page);
  await page.waitForURL('**/sandbox/pay/**');
  await shot(page, 'redirect-payment-page');
  await simulatePayment(page, 'exact');
  await paidOnThankYouPage(page);
  await shot(page, 'redirect-thank-you');
  await context.close();
});

test('the script-tag page works with just the two lines it shows', async () => {
  const [{ id: productId }] = await demo.products();
  const { context, page } = await demo.open();
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto(`${demo.url}/embed/script-tag`);
  const snippet = (await page.locator('#snippet').textContent()) ?? '';
  assert.match(
    snippet,
    /<script type="module" src="http:\/\/localhost:\d+\/widget\/crypto-checkout\.js"><\/script>/,
  );
  assert.match(snippet, new RegExp(`<crypto-checkout mode="pay" product="${productId}"></crypto-checkout>`));
  assert.ok(scripts.includes('/widget/crypto-checkout.js'));

  // No return-url on this page: the element itself shows the outcome.
  await pay(page);
  await simulatePayment(page.frameLocator('crypto-checkout iframe'), 'exact');
  await page.locator('crypto-checkout [part~="status"].paid').waitFor();
  const complete = await recordedEvents(page, 'checkout-complete');
  assert.equal(complete[0]?.detail['status'], 'paid');
  await shot(page, 'script-tag-paid');
  await context.close();
});

test('the npm page imports the package (bundled by Vite) and works without the script-tag bundle', async () => {
  const { context, page } = await demo.open();
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto(`${demo.url}/embed/npm`);
  await page.getByText('Loaded from the npm package').waitFor();
  assert.ok(scripts.includes('/assets/npm-example.js'));
  assert.ok(
    !scripts.includes('/widget/crypto-checkout.js'),
    'the npm page must not load the script-tag bundle',
  );
  await shot(page, 'npm-page');
  await pay(page);
  await simulatePayment(page.frameLocator('crypto-checkout iframe'), 'exact');
  await paidOnThankYouPage(page);
  await context.close();
});

test('a payment page the host refuses to frame falls back to a new tab', async () => {
  const { context, page } = await demo.open();
  await page.goto(`${demo.url}/embed/blocked-frame`);
  await pay(page);
  // The browser blocks the frame (X-Frame-Options: DENY); the element offers a new tab instead.
  const fallback = page.locator('crypto-checkout').getByRole('link', { name: /new tab/i });
  await fallback.waitFor({ timeout: 10_000 });
  await shot(page, 'blocked-frame-fallback');
  const [tab] = await Promise.all([context.waitForEvent('page'), fallback.click()]);
  await tab.waitForLoadState();
  assert.match(new URL(tab.url()).pathname, /^\/sandbox\/pay\//);
  await simulatePayment(tab, 'exact');
  // Back in the shop's tab, the element follows the order's status and shows the payment.
  await page.bringToFront();
  await page.locator('crypto-checkout [part~="status"].paid').waitFor();
  await shot(page, 'blocked-frame-paid');
  await context.close();
});

test('a custom amount is charged through a checkout token the shop server minted', async () => {
  const { context, page } = await demo.open();
  await page.goto(`${demo.url}/embed/custom-amount`);
  await page.getByLabel('Amount').fill('12.50');
  await page.getByRole('button', { name: 'Continue' }).click();
  const checkout = page.locator('crypto-checkout');
  await checkout.getByText('Tip the workshop').waitFor();
  await checkout.getByText('€12.50').waitFor();
  await shot(page, 'custom-amount');
  await pay(page);
  await simulatePayment(page.frameLocator('crypto-checkout iframe'), 'exact');
  await paidOnThankYouPage(page);
  await page.getByText('Tip the workshop, €12.50').waitFor();
  await context.close();
});
