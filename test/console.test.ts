/**
 * The merchant console (docs/console.md) as support and the owner use it: signed in with a write credential, a
 * paid order is found by its transaction hash and by the payer's e-mail, its delivery attempts are shown and its
 * `order.paid` is re-sent (audited under the credential's name); signed in with a read credential at 390 px, the same
 * order is shown with re-sending disabled and the reason given, and the backend refuses the write. Every page passes
 * axe (no serious or critical violation) and none is wider than the phone.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { waitFor } from '../packages/backend/test/servers.ts';
import { seriousViolations } from './console-axe.ts';
import { demoSuite, type Page, test } from './harness.ts';
import { simulatePayment } from './pay-page.ts';

const tokens = {
  desk: `cca_${randomBytes(32).toString('hex')}`,
  owner: `cca_${randomBytes(32).toString('hex')}`,
};
const sha = (token: string) => createHash('sha256').update(token).digest('hex');
const demo = demoSuite('console', {
  ADMIN_CREDENTIALS: `desk:read:${sha(tokens.desk)},owner:write:${sha(tokens.owner)}`,
});
const { shot } = demo;

const admin = (path: string, init: RequestInit = {}) =>
  fetch(`${demo.url}/api/admin${path}`, {
    ...init,
    headers: { authorization: `Bearer ${tokens.owner}`, ...(init.headers ?? {}) },
  });

interface Paid {
  orderId: string;
  txHash: string;
  email: string;
  eventId: string;
}

let paid: Paid | undefined;

/** A shopper's order, paid on the sandbox's payment page; its `order.paid` delivered to the shop's receiver. */
async function paidOrder(): Promise<Paid> {
  if (paid) return paid;
  const [product] = await demo.products();
  const made = await fetch(`${demo.url}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: demo.url, 'idempotency-key': randomUUID() },
    body: JSON.stringify({ product: product.id, returnUrl: `${demo.url}/thank-you` }),
  });
  assert.equal(made.status, 201);
  const { orderId, link } = (await made.json()) as { orderId: string; link: string };
  const { context, page } = await demo.open(new URL(link, demo.url).pathname);
  await simulatePayment(page, 'exact');
  await context.close();
  let eventId = '';
  await waitFor(async () => {
    const { events } = (await (await admin(`/events?orderId=${orderId}`)).json()) as {
      events: Array<{ id: string; type: string; deliveries: Array<{ state: string }> }>;
    };
    const event = events.find((e) => e.type === 'order.paid');
    assert.ok(
      event?.deliveries.some((d) => d.state === 'delivered'),
      'order.paid delivered',
    );
    eventId = event?.id ?? '';
  }, 'the order paid and its event delivered');
  const detail = (await (await admin(`/orders/${orderId}`)).json()) as {
    order: { txHashes: string[]; customerEmail: string | null };
  };
  const txHash = detail.order.txHashes[0];
  assert.ok(txHash, 'the payment has a transaction hash');
  const email = detail.order.customerEmail;
  assert.ok(email, 'the payer gave an e-mail');
  paid = { orderId, txHash, email, eventId };
  return paid;
}

async function signIn(page: Page, token: string, name: string) {
  await page.getByLabel('Admin credential').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(`Signed in as ${name}`).waitFor();
}

async function search(page: Page, text: string, orderId: string) {
  await page.getByLabel('Search', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.locator(`tr[data-order="${orderId}"]`).waitFor();
  assert.equal(await page.locator('tr[data-order]').count(), 1, `only the order found by ${text}`);
}

async function assertAccessible(page: Page, where: string) {
  assert.deepEqual(await seriousViolations(page), [], `axe on ${where}`);
}

const phoneWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

test('a write credential finds a paid order by its transaction hash and e-mail, sees its deliveries and re-sends it', async () => {
  const order = await paidOrder();
  const { context, page } = await demo.open('/console');
  await page.getByRole('heading', { name: 'Merchant console' }).waitFor();
  await assertAccessible(page, 'sign-in');
  await signIn(page, tokens.owner, 'owner');
  await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();

  await search(page, order.txHash, order.orderId);
  await search(page, order.email, order.orderId);
  await assertAccessible(page, 'orders');
  await shot(page, 'console-orders');

  await page.locator(`tr[data-order="${order.orderId}"] a`).click();
  const event = page.locator(`section[data-event="${order.eventId}"]`);
  await event.waitFor();
  assert.ok((await event.locator('tr.attempt').count()) >= 1, 'its delivery attempts are listed');
  const answered = event.locator('tr.attempt td[data-label="Status"]').first();
  assert.match((await answered.textContent()) ?? '', /^\s*2\d\d\s*$/, 'the shop’s receiver answered 2xx');
  await assertAccessible(page, 'an order');
  await shot(page, 'console-order', { fullPage: true });

  await event.getByRole('button', { name: 'Re-send' }).click();
  await page.getByText(/is being sent again/).waitFor();
  await waitFor(async () => {
    const { entries } = (await (await admin('/audit?credential=owner')).json()) as {
      entries: Array<{ action: string; status: number }>;
    };
    assert.ok(
      entries.some((e) => e.action === `POST /api/admin/events/${order.eventId}/resend` && e.status === 200),
    );
  }, 'the re-send audited under "owner"');

  // A payment link, made and copied as the owner shares it by e-mail; it opens the sandbox's payment page.
  await page.getByRole('link', { name: 'Payment links', exact: true }).click();
  await page.getByLabel('Name', { exact: true }).fill('Workshop booking, 2 h');
  await page.getByLabel('Internal note').fill('Invoice 2026-041');
  await page.getByLabel('Amount').fill('80.00');
  await page.getByRole('button', { name: 'Create link' }).click();
  const made = page.locator('a.made-link');
  await made.waitFor();
  const url = (await made.textContent()) ?? '';
  assert.match(url, new RegExp(`^${demo.url}/sandbox/pay/[A-Z0-9]+$`));
  await demo.browser.grantClipboard(context, demo.url);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await page.getByText('Copied to the clipboard.').waitFor();
  assert.equal(await demo.browser.clipboardText(page), url);

  for (const [hash, heading] of [
    ['#/attention', 'Needs attention'],
    ['#/links', 'Payment links'],
    ['#/endpoints', 'Webhook endpoints'],
    ['#/audit', 'Audit log'],
    ['#/health', 'Health'],
  ] as const) {
    await page.getByRole('link', { name: heading, exact: true }).click();
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    await page.waitForFunction(
      () => !document.querySelector('cc-console')?.shadowRoot?.textContent?.includes('Loading'),
    );
    await assertAccessible(page, heading);
    await shot(page, `console-${hash.slice(2)}`);
  }
  // The Health page (the last above) shows the upstream budget's limit as the backend reports it.
  const { budget } = (await (await admin('/upstream-budget')).json()) as { budget: { perSecond: number } };
  await page.getByText(`of ${budget.perSecond} per second`).waitFor();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Merchant console' }).waitFor();
  await context.close();
});

test('a read credential at 390 px sees the order with re-sending disabled and why, and the backend refuses it', async () => {
  const order = await paidOrder();
  const { context, page } = await demo.open('/console', { mobile: true });
  // By keyboard: the credential typed, Enter signs in.
  const field = page.getByLabel('Admin credential');
  await field.fill(tokens.desk);
  await field.press('Enter');
  await page.getByText('Signed in as desk').waitFor();
  await page
    .getByText(/“desk”, a read credential: you can see everything/)
    .first()
    .waitFor();
  await search(page, order.txHash, order.orderId);
  assert.ok((await phoneWidth(page)) <= 390, 'the orders page fits the phone');
  await assertAccessible(page, 'orders at 390 px');

  await page.locator(`tr[data-order="${order.orderId}"] a`).click();
  const event = page.locator(`section[data-event="${order.eventId}"]`);
  await event.waitFor();
  assert.ok(await event.getByRole('button', { name: 'Re-send' }).isDisabled(), 're-sending is disabled');
  assert.ok((await phoneWidth(page)) <= 390, 'the order page fits the phone');
  await assertAccessible(page, 'an order at 390 px');
  await shot(page, 'console-order-read-only', { fullPage: true });

  // What the backend answers the write with a read session (the console's own request, cookie and token).
  const signedIn = await fetch(`${demo.url}/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: tokens.desk }),
  });
  const session = (await signedIn.json()) as { csrf: string; csrfHeader: string };
  const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const refused = await fetch(`${demo.url}/api/admin/events/${order.eventId}/resend`, {
    method: 'POST',
    headers: { cookie, [session.csrfHeader]: session.csrf },
  });
  assert.equal(refused.status, 403);
  assert.match(
    ((await refused.json()) as { error: { message: string } }).error.message,
    /"desk" has the read scope/,
  );
  assert.ok(!(await page.content()).includes(tokens.desk), 'the credential is not kept in the page');
  await context.close();
});
