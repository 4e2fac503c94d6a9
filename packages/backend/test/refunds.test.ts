/**
 * Refunds over real HTTP, the sandbox as the upstream: an order overpaid in the sandbox → the merchant requests a
 * refund of the excess (write scope, audited, idempotent) → the shopper's claim page (strict CSP, no script)
 * refuses a wrong address with the reason and takes a right one → the merchant records it sent → the receiver
 * hears refund.requested, refund.address_provided and refund.sent in that order, verified; the order's views show
 * the refund and what was refunded.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startBackground } from '../src/process/background.ts';
import { startReceiver } from './merchant-receiver.ts';
import { createOrder, getStatus, productsFile, upstreamIdOf } from './order-fixtures.ts';
import { waitFor } from './servers.ts';
import { json, type Stack, startStack } from './support.ts';

const tokens = { support: 'support-read-token-0123456789abcdef', ops: 'ops-write-token-0123456789abcdef' };
const tokenSha256 = (token: string) => createHash('sha256').update(token).digest('hex');
const secret = `whsec_${Buffer.from('refunds-test-secret-0123456789ab').toString('base64')}`;

let stack: Stack;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let worker: ReturnType<typeof startBackground>;
before(async () => {
  receiver = await startReceiver(secret);
  stack = await startStack({
    env: {
      PRODUCTS_FILE: productsFile,
      ADMIN_CREDENTIALS: `support:read:${tokenSha256(tokens.support)},ops:write:${tokenSha256(tokens.ops)}`,
      MERCHANT_WEBHOOK_URL: receiver.url,
      MERCHANT_WEBHOOK_SECRET: secret,
    },
  });
  worker = startBackground(stack.deps, {});
});
after(async () => {
  await worker.stop();
  await stack.close();
  await receiver.close();
});

const admin = (path: string, init: RequestInit & { json?: unknown } = {}, token: string = tokens.ops) =>
  stack.api(`/api/admin${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
const post = (path: string, body: unknown, key: string, token?: string) =>
  admin(path, { method: 'POST', json: body, headers: { 'idempotency-key': key } }, token);

interface Refund {
  id: string;
  status: string;
  amount: string;
  currency: string;
  network: string;
  claimUrl: string;
  address: string | null;
  txHash: string | null;
}

/** An order overpaid through the sandbox's controls, as the ledger knows it once the webhook came. */
async function overpaidOrder() {
  const created = await createOrder(stack, { product: 'hoodie', customer: { email: 'ada@example.com' } });
  await stack.control('POST', `/orders/${upstreamIdOf(created)}/pay`, {
    kind: 'overpaid',
    currency: 'USDC_BASE',
  });
  await waitFor(async () => {
    const view = await getStatus(stack, created);
    if (view.status !== 'overpaid') throw new Error(`still ${view.status}`);
  }, 'the order overpaid');
  return created;
}

/** The claim page's path at the backend (the claim URL names PUBLIC_URL's origin). */
const claimPath = (refund: Refund) => new URL(refund.claimUrl).pathname;

test('an overpaid order’s excess is refunded through the claim link, and the receiver hears the three events in order', async () => {
  const created = await overpaidOrder();
  const detail = await json<{ order: { paid: { amount: string; currency: string } } }>(
    await admin(`/orders/${created.orderId}`),
  );
  assert.equal(detail.order.paid.currency.split('_')[0], 'USDC');

  // A read credential may not refund.
  const forbidden = await post(
    `/orders/${created.orderId}/refunds`,
    { of: 'excess' },
    'refund-read-1',
    tokens.support,
  );
  assert.equal(forbidden.status, 403);
  // More than the excess is refused with what is available.
  const tooMuch = await post(
    `/orders/${created.orderId}/refunds`,
    { of: 'excess', amount: '1000' },
    'refund-much-1',
  );
  assert.equal(tooMuch.status, 422);
  const tooMuchBody = await json<{ error: { code: string; message: string } }>(tooMuch);
  assert.equal(tooMuchBody.error.code, 'REFUND_TOO_LARGE');
  assert.match(tooMuchBody.error.message, /^At most [\d.]+ USDC\S* can still be refunded of the excess/);

  const requested = await post(
    `/orders/${created.orderId}/refunds`,
    { of: 'excess', reason: 'You sent more' },
    'refund-excess-1',
  );
  assert.equal(requested.status, 201);
  const refund = await json<Refund>(requested);
  assert.equal(refund.status, 'requested');
  assert.equal(refund.network, 'base');
  // The same key and body: the same refund (replayed), not a second one.
  const replay = await post(
    `/orders/${created.orderId}/refunds`,
    { of: 'excess', reason: 'You sent more' },
    'refund-excess-1',
  );
  assert.equal(replay.status, 200);
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  assert.equal((await json<Refund>(replay)).id, refund.id);

  // The shopper's order view lists it with its claim link.
  const view = (await getStatus(stack, created)) as {
    refunds?: Array<{ id: string; status: string; claimUrl: string }>;
  };
  assert.deepEqual(
    view.refunds?.map((r) => [r.id, r.status, r.claimUrl]),
    [[refund.id, 'requested', refund.claimUrl]],
  );

  // The claim page: strict CSP (no script at all, forms post to itself only), what is refunded, a form.
  const page = await stack.api(claimPath(refund));
  assert.equal(page.status, 200);
  const csp = page.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /form-action 'self'/);
  assert.match(csp, /frame-ancestors 'self'/);
  assert.doesNotMatch(csp, /script-src/);
  const html = await page.text();
  assert.match(html, /<html lang="en">/);
  assert.match(
    html,
    new RegExp(`refunding you <strong>${refund.amount} ${refund.currency}</strong> on Base`),
  );
  assert.doesNotMatch(html, /<script/);
  // A token that is not this refund's opens nothing.
  const forged = await stack.api(`${claimPath(refund).slice(0, -4)}AAAA`);
  assert.equal(forged.status, 404);

  // A wrong address (one character's case changed) is refused with the reason, on the page and as JSON.
  const good = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  const wrong = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';
  const refusedForm = await stack.api(claimPath(refund), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ address: wrong }).toString(),
  });
  assert.equal(refusedForm.status, 422);
  const refusedHtml = await refusedForm.text();
  assert.match(refusedHtml, /That is not a Base address: the checksum does not match/);
  assert.match(refusedHtml, new RegExp(`value="${wrong}"`), 'what was typed is kept to correct');
  const refusedJson = await stack.api(claimPath(refund), { method: 'POST', json: { address: wrong } });
  assert.equal(refusedJson.status, 422);
  const envelope = await json<{ error: { code: string; message: string; requestId: string } }>(refusedJson);
  assert.equal(envelope.error.code, 'ADDRESS_INVALID');
  assert.equal(envelope.error.message, 'That is not a Base address: the checksum does not match.');
  assert.ok(envelope.error.requestId);
  // Sent before an address is given: refused.
  const early = await post(
    `/refunds/${refund.id}/sent`,
    { txHash: `0x${'ab'.repeat(32)}` },
    'refund-sent-early',
  );
  assert.equal(early.status, 409);

  // The right one (in lower case: kept checksummed), by the form: 303 back to the page, which says it is received.
  const given = await stack.api(claimPath(refund), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ address: good.toLowerCase() }).toString(),
    redirect: 'manual',
  });
  assert.equal(given.status, 303);
  const after = await (await stack.api(claimPath(refund))).text();
  assert.match(after, /address received/);
  assert.match(after, new RegExp(good));

  const txHash = `0x${'cd'.repeat(32)}`;
  const sent = await post(`/refunds/${refund.id}/sent`, { txHash }, 'refund-sent-1');
  assert.equal(sent.status, 200);
  const sentRefund = await json<Refund>(sent);
  assert.deepEqual([sentRefund.status, sentRefund.address, sentRefund.txHash], ['sent', good, txHash]);
  assert.match(
    await (await stack.api(claimPath(refund))).text(),
    new RegExp(`has been sent[\\s\\S]*${txHash}`),
  );
  // Cancelling a sent refund is refused.
  assert.equal((await post(`/refunds/${refund.id}/cancel`, {}, 'refund-cancel-1')).status, 409);

  // The receiver: the three events, in order, each verified (startReceiver refuses what does not verify).
  await waitFor(async () => {
    const types = receiver.received
      .filter(
        (r) =>
          r.event.type.startsWith('refund.') &&
          'refundId' in r.event.data &&
          r.event.data.refundId === refund.id,
      )
      .map((r) => r.event.type);
    if (types.length < 3) throw new Error(`heard ${types.join(', ')}`);
  }, 'the refund events delivered');
  const heard = receiver.received.filter(
    (r) => 'orderId' in r.event.data && r.event.data.orderId === created.orderId,
  );
  const refundEvents = heard.filter((r) => r.event.type.startsWith('refund.'));
  assert.deepEqual(
    refundEvents.map((r) => r.event.type),
    ['refund.requested', 'refund.address_provided', 'refund.sent'],
  );
  const sequences = refundEvents.map((r) => r.event.sequence ?? 0);
  assert.deepEqual(
    sequences,
    [...sequences].sort((a, b) => a - b),
    'numbered in the order they happened',
  );
  const last = refundEvents[2]!.event.data as { txHash: string; address: string; refunded: { sent: string } };
  assert.equal(last.txHash, txHash);
  assert.equal(last.address, good);
  assert.equal(last.refunded.sent, refund.amount);
  assert.equal(receiver.rejected.length, 0);

  // The admin's order shows the refund and the total; the audit log has each write.
  const listed = await json<{ refunds: Refund[] }>(await admin(`/refunds?orderId=${created.orderId}`));
  assert.deepEqual(
    listed.refunds.map((r) => [r.id, r.status]),
    [[refund.id, 'sent']],
  );
  const orderDetail = await json<{
    order: { refunds: Refund[]; refunded: { requested: string; sent: string } };
    audit: Array<{ action: string }>;
  }>(await admin(`/orders/${created.orderId}`));
  assert.deepEqual(
    orderDetail.order.refunds.map((r) => r.id),
    [refund.id],
  );
  assert.equal(orderDetail.order.refunded.sent, refund.amount);
  const actions = orderDetail.audit.map((entry) => entry.action);
  assert.ok(
    actions.some((action) => action.includes(`/orders/${created.orderId}/refunds`)),
    actions.join('; '),
  );
  assert.ok(
    actions.some((action) => action.includes(`/refunds/${refund.id}/sent`)),
    actions.join('; '),
  );
});
