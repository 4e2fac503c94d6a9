/**
 * The shopper's view of an order says what its money needs (`settlement`): over real HTTP to the backend on the
 * sandbox, its webhooks signed, an underpaid order's exact rest and until when it can be paid, a second partial
 * payment's smaller rest, and an overpaid order's excess (final: nothing left to pay by).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Created, createOrder, productsFile, upstreamIdOf, waitFor } from './order-fixtures.ts';
import { json, type Stack, startStack } from './support.ts';

let stack: Stack;
before(async () => {
  stack = await startStack({ env: { PRODUCTS_FILE: productsFile } });
});
after(() => stack.close());

interface Settlement {
  due: { amount: string; currency: string };
  received: { amount: string; currency: string };
  remaining?: string;
  excess?: string;
  payBy?: string;
}
interface View {
  status: string;
  final: boolean;
  settlement?: Settlement;
}

const view = async (created: Created) =>
  json<View>(
    await stack.api(`/api/orders/${created.orderId}`, { headers: { 'x-status-token': created.statusToken } }),
  );

/** Sends `amount` of the order's crypto to it (the sandbox's control) and answers what the sandbox says is due. */
async function send(created: Created, amount: string): Promise<{ due: string; currency: string }> {
  const answer = (await stack.control('POST', `/orders/${upstreamIdOf(created)}/pay`, { amount })) as {
    data: { order: { quote: { toAmount: { amount: string; currency: { symbol: string } } } } };
  };
  const { toAmount } = answer.data.order.quote;
  return { due: toAmount.amount, currency: toAmount.currency.symbol };
}

/** The view once `done` says it shows what the last payment changed. */
const viewWhen = (created: Created, done: (v: View) => boolean) =>
  waitFor(async () => {
    const v = await view(created);
    return done(v) ? v : undefined;
  }, 'the order view to show the payment');

describe('the order view: settlement', () => {
  test('underpaid: the exact rest in the crypto paid, until the order expires; a top-up leaves less', async () => {
    const created = await createOrder(stack);
    const { due, currency } = await send(created, '1.25');
    const first = await viewWhen(created, (v) => v.status === 'underpaid');
    assert.equal(first.final, false);
    const dueUnits = Math.round(Number(due) * 1e6);
    assert.deepEqual(first.settlement?.due, { amount: due, currency });
    assert.deepEqual(first.settlement?.received, { amount: '1.25', currency });
    assert.equal(Math.round(Number(first.settlement?.remaining) * 1e6), dueUnits - 1_250_000);
    assert.equal(first.settlement?.excess, undefined);
    assert.equal(first.settlement?.payBy, created.expiresAt);

    await send(created, '2.5');
    const second = await viewWhen(created, (v) => v.settlement?.received.amount === '3.75');
    assert.equal(second.status, 'underpaid');
    assert.equal(Math.round(Number(second.settlement?.remaining) * 1e6), dueUnits - 3_750_000);
  });

  test('before any payment: what is due, nothing received, nothing yet missing', async () => {
    const created = await createOrder(stack);
    const { settlement } = await view(created);
    assert.ok(settlement && Number(settlement.due.amount) > 0);
    assert.deepEqual(settlement.received, { amount: '0', currency: settlement.due.currency });
    assert.equal(settlement.remaining, undefined);
    assert.equal(settlement.payBy, undefined);
  });

  test('overpaid: what arrived beyond what was due, and no time to pay anything', async () => {
    const created = await createOrder(stack);
    const probe = await send(created, '1');
    const more = (Number(probe.due) + 1).toFixed(6);
    await send(created, more);
    const v = await viewWhen(created, (v) => v.status === 'overpaid');
    assert.equal(v.final, true);
    assert.equal(v.settlement?.remaining, undefined);
    assert.equal(v.settlement?.payBy, undefined);
    assert.equal(Number(v.settlement?.excess), 2);
  });
});
