/**
 * A refund as the merchant and the shopper live it, in each engine: an order overpaid on the sandbox's payment
 * page → the merchant requests a refund of the excess (admin API) → the shopper opens the claim link at 390 px →
 * a wrong address is refused with the reason → a right one is accepted → the merchant records it sent → the page
 * shows the transaction, and the shop's receiver gets refund.requested, refund.address_provided and refund.sent in
 * that order, each verified with the Standard Webhooks library. Every state of the page passes axe (no serious or
 * critical violation), fits the phone, and breaks no CSP (the harness checks).
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { after } from 'node:test';
import { startReceiver } from '../packages/backend/test/merchant-receiver.ts';
import { waitFor } from '../packages/backend/test/servers.ts';
import { seriousViolations } from './console-axe.ts';
import { demoSuite, type Page, test } from './harness.ts';
import { simulatePayment } from './pay-page.ts';

const owner = `cca_${randomBytes(32).toString('hex')}`;
const secret = `whsec_${randomBytes(24).toString('base64')}`;
// The receiver listens before the demo starts: its address is in the demo's environment.
const receiver = await startReceiver(secret);
after(() => receiver.close());
const demo = demoSuite('refunds', {
  ADMIN_CREDENTIALS: `owner:write:${createHash('sha256').update(owner).digest('hex')}`,
  MERCHANT_WEBHOOK_URL: receiver.url,
  MERCHANT_WEBHOOK_SECRET: secret,
});

const admin = (path: string, body?: unknown) =>
  fetch(`${demo.url}/api/admin${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${owner}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** A right and a wrong address on each network the sandbox pays on (the wrong one: one character changed). */
const addresses: Record<string, { good: string; wrong: string; reason: RegExp }> = {
  evm: {
    good: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    wrong: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
    reason: /That is not an? [A-Za-z]+ address: the checksum does not match/,
  },
  bitcoin: {
    good: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    wrong: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5',
    reason: /That is not a Bitcoin address: the checksum does not match/,
  },
  solana: {
    good: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    wrong: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt',
    reason: /That is not a Solana address: it must be a 32-byte key/,
  },
  tron: {
    good: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    wrong: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u',
    reason: /That is not a Tron address: the checksum does not match/,
  },
};
const addressesFor = (network: string) =>
  addresses[['ethereum', 'base', 'polygon', 'arbitrum'].includes(network) ? 'evm' : network];

async function assertAccessible(page: Page, where: string) {
  assert.deepEqual(await seriousViolations(page), [], `axe on ${where}`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `${where} fits the phone (${width} px)`);
}

test('an overpaid order’s excess is refunded through the claim link, and the receiver gets the three events in order', async () => {
  const [product] = await demo.products();
  const made = await fetch(`${demo.url}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: demo.url, 'idempotency-key': randomUUID() },
    body: JSON.stringify({ product: product.id, returnUrl: `${demo.url}/thank-you` }),
  });
  assert.equal(made.status, 201);
  const { orderId, link } = (await made.json()) as { orderId: string; link: string };
  const paying = await demo.open(new URL(link, demo.url).pathname);
  await simulatePayment(paying.page, 'overpaid');
  await paying.context.close();
  await waitFor(async () => {
    const detail = (await (await admin(`/orders/${orderId}`)).json()) as { order: { status: string } };
    assert.equal(detail.order.status, 'overpaid');
  }, 'the order overpaid in the ledger');

  const requested = await admin(`/orders/${orderId}/refunds`, {
    of: 'excess',
    reason: 'You sent more than the price',
  });
  assert.equal(requested.status, 201, await requested.clone().text());
  const refund = (await requested.json()) as {
    id: string;
    amount: string;
    currency: string;
    network: string;
    claimUrl: string;
  };
  const known = addressesFor(refund.network);
  assert.ok(known, `the sandbox paid on ${refund.network}, which this test has addresses for`);

  // The shopper opens the claim link (as an e-mail or the element would carry it), on a phone.
  const { context, page } = await demo.open(new URL(refund.claimUrl).pathname, { mobile: true });
  await page.getByRole('heading', { name: 'Your refund: where should it go?' }).waitFor();
  await page.getByText(`${refund.amount} ${refund.currency}`).first().waitFor();
  await assertAccessible(page, 'the claim page');
  await demo.shot(page, 'refund-claim');

  await page.getByLabel(/address for/).fill(known.wrong);
  await page.getByRole('button', { name: 'Send me the refund here' }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  assert.match((await alert.textContent()) ?? '', known.reason);
  assert.equal(
    await page
      .getByLabel(/address for/)
      .evaluate((input: HTMLInputElement) => input.getAttribute('aria-invalid')),
    'true',
  );
  await assertAccessible(page, 'the claim page with the reason');
  await demo.shot(page, 'refund-claim-refused');

  await page.getByLabel(/address for/).fill(known.good);
  await page.getByRole('button', { name: 'Send me the refund here' }).click();
  await page.getByRole('heading', { name: 'Your refund: address received' }).waitFor();
  await page.getByText(known.good).first().waitFor();
  await assertAccessible(page, 'the claim page, address received');

  // The merchant pays it out in the upstream's dashboard, then records the transaction.
  const txHash = `0x${randomBytes(32).toString('hex')}`;
  const sent = await admin(`/refunds/${refund.id}/sent`, { txHash });
  assert.equal(sent.status, 200, await sent.clone().text());
  await page.reload();
  await page.getByRole('heading', { name: 'Your refund has been sent' }).waitFor();
  await page.getByText(txHash).waitFor();
  await assertAccessible(page, 'the claim page, sent');
  await demo.shot(page, 'refund-claim-sent');
  await context.close();

  const ofRefund = () =>
    receiver.received.filter((r) => (r.event.data as { refundId?: string }).refundId === refund.id);
  await waitFor(async () => {
    assert.equal(
      ofRefund().length,
      3,
      `heard ${ofRefund()
        .map((r) => r.event.type)
        .join(', ')}`,
    );
  }, 'the three refund events at the receiver');
  assert.deepEqual(
    ofRefund().map((r) => r.event.type),
    ['refund.requested', 'refund.address_provided', 'refund.sent'],
  );
  const last = ofRefund()[2]?.event.data as { txHash: string; address: string };
  assert.equal(last.txHash, txHash);
  assert.ok(known.good.toLowerCase() === last.address.toLowerCase());
  assert.deepEqual(receiver.rejected, [], 'every delivery verified');
});
