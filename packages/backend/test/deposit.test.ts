import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createCustomerToken } from '../src/index.ts';
import { countUpstreamCalls } from './order-fixtures.ts';
import { json, type Stack, startStack, testSecrets } from './support.ts';

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(() => stack.close());

const tokenFor = (customerId: string, expiresInSeconds = 600, now?: number) =>
  createCustomerToken(
    { customerId, email: `${customerId}@example.com`, name: 'Ada', expiresInSeconds },
    testSecrets.checkoutTokenSecret,
    now,
  );

const request = (customerToken: string, chain: string) =>
  stack.api('/api/deposit-addresses', { method: 'POST', json: { customerToken, chain } });

interface Deposit {
  chain: string;
  address: string;
  memo: string | null;
  currencies: string[];
  qrSvg: string;
  createdAt: string;
  reused: boolean;
}

test('a customer gets a permanent address per chain, created once and reused', async () => {
  const token = tokenFor('cus_1');
  const first = await request(token, 'base');
  assert.equal(first.status, 200);
  const created = await json<Deposit>(first);
  assert.equal(created.chain, 'base');
  assert.match(created.address, /^0x[0-9a-f]{40}$/);
  assert.equal(created.memo, null);
  assert.ok(created.currencies.includes('USDC'));
  assert.match(created.qrSvg, /^<svg[\s\S]*<\/svg>$/);
  assert.equal(created.reused, false);

  let again: Deposit | undefined;
  const calls = await countUpstreamCalls(stack, '/pay-api/v1/payment-routes', 'POST', async () => {
    again = await json<Deposit>(await request(tokenFor('cus_1'), 'BASE'));
  });
  assert.equal(calls, 0, 'the stored route is reused without asking the upstream');
  assert.equal(again?.address, created.address);
  assert.equal(again?.reused, true);

  const otherChain = await json<Deposit>(await request(token, 'tron'));
  assert.equal(otherChain.reused, false);
  assert.notEqual(otherChain.address, created.address);
});

test('concurrent first calls for one customer and chain make one upstream call', async () => {
  let bodies: Deposit[] = [];
  const calls = await countUpstreamCalls(stack, '/pay-api/v1/payment-routes', 'POST', async () => {
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => request(tokenFor('cus_2'), 'polygon')),
    );
    bodies = await Promise.all(responses.map((response) => json<Deposit>(response)));
  });
  assert.equal(calls, 1);
  assert.equal(new Set(bodies.map((body) => body.address)).size, 1);
  assert.equal(bodies.filter((body) => !body.reused).length, 1);
});

test('memo chains return the memo', async () => {
  const body = await json<Deposit>(await request(tokenFor('cus_3'), 'xrp'));
  assert.match(body.memo ?? '', /^\d+$/);
});

test('refusals: bad or expired customer token, a checkout token, bad or unsupported chain', async () => {
  const forged = createCustomerToken(
    { customerId: 'cus_1', expiresInSeconds: 60 },
    'not-the-secret-0123456789',
  );
  const refused = await request(forged, 'base');
  assert.equal(refused.status, 401);
  assert.equal((await json<{ error: { code: string } }>(refused)).error.code, 'TOKEN_INVALID');

  const expired = await request(tokenFor('cus_1', 1, Date.now() - 5000), 'base');
  assert.equal((await json<{ error: { code: string } }>(expired)).error.code, 'TOKEN_EXPIRED');

  assert.equal((await request(tokenFor('cus_1'), 'not a chain!')).status, 422);
  const unsupported = await request(tokenFor('cus_1'), 'dogechain');
  assert.equal(unsupported.status, 422);
  const issues = (await json<{ error: { issues: Array<{ path: string }> } }>(unsupported)).error.issues;
  assert.equal(issues[0]?.path, 'chain');
  assert.equal(
    (await stack.api('/api/deposit-addresses', { method: 'POST', json: { chain: 'base' } })).status,
    422,
  );
});

test('memo chains offered by the catalog come with the memo the customer must send', async () => {
  const catalog = await json<{ chains: { id: string }[] }>(await stack.api('/api/catalog?country=DE'));
  for (const chain of ['xrp', 'ton']) {
    assert.ok(
      catalog.chains.some((offered) => offered.id === chain),
      `${chain} is offered`,
    );
    const deposit = await json<Deposit>(await request(tokenFor('cus_memo'), chain));
    assert.equal(deposit.chain, chain);
    assert.ok(deposit.memo, `${chain} deposits carry a memo`);
    assert.notEqual(deposit.memo, (await json<Deposit>(await request(tokenFor('cus_memo_2'), chain))).memo);
  }
});
