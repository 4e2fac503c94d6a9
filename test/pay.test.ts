/** Paying for a product: the whole chain from the shop to the thank-you page and the merchant's Orders page. */
import assert from 'node:assert/strict';
import { waitFor } from '../packages/backend/test/servers.ts';
import {
  clickPay,
  demoSuite,
  type Page,
  recordedEvents,
  recordStatusOnLeave,
  statusShownOnLeave,
  test,
  waitForEvent,
} from './harness.ts';
import { type PaymentKind, simulatePayment } from './pay-page.ts';

const demo = demoSuite('pay');
const { shot } = demo;

/** Clicks "Pay with crypto" and returns the order id from the element's `checkout-order` event. */
async function startPayment(page: Page): Promise<string> {
  await clickPay(page);
  const [order] = await waitForEvent(page, 'checkout-order');
  const orderId = order?.detail['orderId'];
  assert.equal(typeof orderId, 'string');
  return orderId as string;
}

test('pay: product → payment page in the iframe → exact payment → success → thank-you page → Orders page', async () => {
  const [product] = await demo.products();
  const { context, page } = await demo.open('/');
  await page.getByRole('link', { name: new RegExp(product.name) }).click();
  await page.waitForURL(`**/products/${product.id}`);
  await page
    .locator('crypto-checkout')
    .getByRole('button', { name: /pay with crypto/i })
    .waitFor();
  await shot(page, 'product');

  // Name and e-mail are asked once, on the payment page: the element has no fields of its own.
  const checkout = page.locator('crypto-checkout');
  assert.equal(await checkout.getByRole('textbox').count(), 0, 'the element asks for details too');
  const orderId = await startPayment(page);
  // display="auto" on a wide screen: the payment page opens in a modal dialog, in an iframe, titled with what
  // is paid.
  const dialog = page.locator('crypto-checkout dialog[open]');
  await dialog.waitFor();
  await page.getByRole('dialog', { name: new RegExp(`^${product.name} · `) }).waitFor();
  const frame = page.frameLocator('crypto-checkout iframe');
  await frame.locator('body').waitFor();
  await frame.getByText(product.name).first().waitFor();
  await frame.getByLabel('Full name').waitFor();
  // The one order reference the shopper is shown: the payment page's.
  const reference = ((await frame.getByText(/^Order /).textContent()) ?? '').replace(/^Order /, '').trim();
  assert.match(reference, /^[A-Z0-9]{12}$/);
  // The page's own button shows without scrolling inside the frame or the dialog.
  const continueBox = await frame.getByRole('button', { name: 'Continue' }).boundingBox();
  const dialogBox = await dialog.boundingBox();
  assert.ok(continueBox && dialogBox, 'the button and the dialog are on screen');
  assert.ok(
    continueBox.y + continueBox.height <= dialogBox.y + dialogBox.height,
    `the button (bottom ${continueBox.y + continueBox.height}) is cut off by the dialog (bottom ${dialogBox.y + dialogBox.height})`,
  );
  await shot(page, 'payment-page-in-modal');

  // The element moves on to the thank-you page as soon as the payment is final, too soon for a screenshot:
  // what it showed is read from the page as the browser leaves it.
  await recordStatusOnLeave(page);
  await simulatePayment(frame, 'exact');
  await page.waitForURL('**/thank-you?**');
  assert.deepEqual(await statusShownOnLeave(page), {
    className: 'status paid',
    text: 'Paid. Thank you!',
    visible: true,
    // The card ends with the element: no space kept for the form it had before.
    spaceBelow: 0,
  });

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
  // The same reference as on the payment page.
  assert.equal(await page.locator('#fact-order').textContent(), reference);
  await shot(page, 'thank-you');

  // The thank-you page sends support to the merchant console at this order (test/console.test.ts signs in there).
  await page.getByRole('link', { name: 'See it in the merchant console' }).click();
  await page.waitForURL('**/console**');
  await page.getByRole('heading', { name: 'Merchant console' }).waitFor();
  const landed = new URL(page.url());
  assert.equal(landed.pathname, '/console');
  assert.equal(decodeURIComponent(landed.hash), `#/orders/${reference}`);
  // The shop's own receiver heard order.paid (signed, Standard Webhooks) and shipped it.
  await waitFor(async () => {
    const { shipments } = (await (await fetch(`${demo.url}/shop/shipments`)).json()) as {
      shipments: Array<{ orderId: string }>;
    };
    assert.ok(
      shipments.some((shipment) => shipment.orderId === orderId),
      'the shop shipped it',
    );
  }, 'the shop to ship the order');
  await context.close();
});

test('the demo opened at 127.0.0.1 or [::1] instead of localhost pays end to end', async () => {
  const [product] = await demo.products();
  for (const host of ['127.0.0.1', '[::1]']) {
    const { context, page } = await demo.open(`/products/${product.id}?display=inline`, { host });
    const orderId = await startPayment(page);
    const frame = page.frameLocator('crypto-checkout iframe');
    await frame.getByText(product.name).first().waitFor();
    await simulatePayment(frame, 'exact');
    await page.waitForURL('**/thank-you?**');
    const url = new URL(page.url());
    assert.equal(url.host, new URL(`http://${host}`).host + `:${new URL(demo.url).port}`);
    assert.equal(url.searchParams.get('orderId'), orderId);
    await page.locator('#result[data-status="paid"]').waitFor();
    await context.close();
  }
});

test('underpaid, overpaid and expired payments end in the right state on screen', async () => {
  const [product] = await demo.products();
  const outcome = async (kind: PaymentKind) => {
    const { context, page } = await demo.open(`/products/${product.id}?display=inline`);
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

test("on a phone: the payment page inline is flat and as tall as itself, and the demo's code samples wrap", async () => {
  const [product] = await demo.products();
  const { context, page } = await demo.open(`/products/${product.id}?display=inline`, { mobile: true });
  await startPayment(page);
  const frame = page.frameLocator('crypto-checkout iframe');
  await frame.getByLabel('Full name').waitFor();
  // No card inside a card inside a card: the framed page's sections are flat.
  const cardBorder = await frame
    .locator('.card')
    .first()
    .evaluate((card) => getComputedStyle(card).borderTopWidth);
  assert.equal(cardBorder, '0px');
  // The frame is as tall as the page in it: one scroll, the page's, not a second one inside the frame.
  const iframe = page.locator('crypto-checkout iframe');
  await page.waitForFunction(
    () => !!document.querySelector('crypto-checkout')?.shadowRoot?.querySelector('iframe')?.style.height,
  );
  const inner = await frame.locator('html').evaluate((html) => html.scrollHeight - html.clientHeight);
  assert.ok(inner <= 1, `the frame scrolls by ${inner}px inside`);
  assert.ok(((await iframe.boundingBox())?.width ?? 0) <= 390);
  await shot(page, 'phone-payment-page-inline', { fullPage: true });

  // The demo's code samples wrap on a phone: nothing is cut off at the block's edge.
  for (const path of ['/buy', '/embed/script-tag']) {
    await page.goto(`${demo.url}${path}`);
    const blocks = page.locator('.code');
    await blocks.first().waitFor();
    const cut = await blocks.evaluateAll((all) => all.map((block) => block.scrollWidth - block.clientWidth));
    assert.ok(
      cut.every((px) => px <= 1),
      `${path}: code blocks cut off by ${cut.join(', ')} px`,
    );
  }
  await context.close();
});

test('Back during a payment after a redirect shows the order in flight with its status, and Back after paying shows it paid', async () => {
  const [product] = await demo.products();
  const { context, page } = await demo.open(`/products/${product.id}?display=redirect`);
  const productUrl = page.url();
  await clickPay(page);
  await page.waitForURL('**/pay/**');
  const paymentPage = page.url();

  // Back: the shop's page shows the same order, waiting, with the way back to its payment page.
  await page.goBack();
  assert.equal(page.url(), productUrl);
  const checkout = page.locator('crypto-checkout');
  await checkout.getByRole('status').filter({ hasText: 'Waiting for your payment' }).waitFor();
  assert.equal(await checkout.getByRole('button', { name: /pay with crypto/i }).count(), 0);
  await shot(page, 'back-restored');
  await checkout.getByRole('button', { name: 'Open the payment page' }).click();
  await page.waitForURL('**/pay/**');
  assert.equal(page.url(), paymentPage, 'the same order, not a new one');

  // Paid there, the payment page returns to the thank-you page; Back from it shows the order paid, and stays.
  await simulatePayment(page, 'exact');
  await page.waitForURL('**/thank-you?**');
  // Back through the payment page to the shop's.
  // (The payment page answers each of its steps with a redirect to itself: one history entry each.)
  for (let step = 0; step < 10 && page.url() !== productUrl; step += 1) await page.goBack();
  assert.equal(page.url(), productUrl);
  await checkout.getByRole('status').filter({ hasText: 'Paid. Thank you!' }).waitFor();
  assert.equal((await recordedEvents(page, 'checkout-complete')).length, 0, 'sent forward again');
  // Ended, it is forgotten: a reload shows the product to buy again.
  await page.reload();
  await checkout.getByRole('button', { name: /pay with crypto/i }).waitFor();
  await context.close();
});
