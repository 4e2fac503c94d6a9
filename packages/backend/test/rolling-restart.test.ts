/**
 * Rolling restarts behind a real load balancer (README "Production"): three backends (the built CLI) on one
 * PostgreSQL and one Redis, one standalone sandbox (`crypto-checkout-sandbox`), Debian's HAProxy with
 * deploy/haproxy.cfg as shipped. While shoppers ask for quotes, create orders with Idempotency-Keys, follow each
 * order's status stream and pay it, all through HAProxy, each instance in turn gets SIGTERM and is started again,
 * then one gets SIGKILL and is started again.
 *
 * On the graceful restarts no shopper request fails: the instance leaves HAProxy's rotation (its /readyz fails)
 * while it still serves for SHUTDOWN_DRAIN_MS, ends its status streams with a retry hint, finishes what it
 * serves, and exits 0. Whatever the restarts: every status stream (reconnecting as the element's EventSource
 * does) sees the order paid, each Idempotency-Key makes one order upstream, and the merchant's receiver, which
 * dedupes by webhook-id, gets each event of each order, each under one id.
 *
 * On the SIGKILL, what HAProxy cannot hide is allowed: a request in flight on the killed instance when it died
 * (HAProxy sends a quote again elsewhere, but an order creation retried there finds its Idempotency-Key still
 * claimed by the dead process: 409 "still in progress" until the claim is stale; or, when the dead process had
 * made the order and died before its answer left, the key's replay: 200, the same order), a status stream it was
 * serving cut without a retry hint (the stream reconnects), and a webhook it was delivering delivered again
 * under the same id. Nothing else.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  type Attempt,
  answeredAnOrder,
  type Deployment,
  during,
  type Phase,
  rollingRestart,
  shopOrigin,
  shoppers,
  startDeployment,
} from './rolling.ts';
import { waitFor } from './servers.ts';

let deployment: Deployment;
before(async () => {
  deployment = await startDeployment();
});
after(async () => {
  await deployment?.close();
});

/** A few combinations the backend prices, from its catalog through HAProxy (each quoted once). */
async function quoteBodies(front: string): Promise<string[]> {
  const catalog = (await (await fetch(`${front}/api/catalog?country=DE`)).json()) as {
    paymentMethods: Array<{ id: string; currencies: string[] }>;
    cryptos: Array<{ code: string }>;
  };
  const bodies: string[] = [];
  for (const method of catalog.paymentMethods.slice(0, 2)) {
    for (const crypto of catalog.cryptos.slice(0, 2)) {
      const body = JSON.stringify({
        paymentMethod: method.id,
        country: 'DE',
        fiat: method.currencies.includes('EUR') ? 'EUR' : method.currencies[0],
        crypto: crypto.code,
        fiatAmount: '100',
      });
      const response = await fetch(`${front}/api/quotes/buy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      if (response.ok) bodies.push(body);
      await response.arrayBuffer();
    }
  }
  assert.ok(bodies.length > 0, 'some combination is priced');
  return bodies;
}

const describeAttempt = (attempt: Attempt, phases: Phase[]) =>
  `${attempt.status} ${attempt.body.slice(0, 200)} (due ${Math.round(attempt.dueAt)}, done ${Math.round(attempt.doneAt)}; ${
    during(phases, attempt.dueAt)?.kind ?? 'no'
  } restart)`;

test('SIGTERM each of three instances in turn, then SIGKILL one, under shoppers through HAProxy', {
  timeout: 600_000,
}, async (t) => {
  const { front, instances } = deployment;
  const bodies = await quoteBodies(front);
  // A few orders made before the restarts are paid only after them: their streams are open on whichever
  // instance they reached until that instance is stopped, so each graceful stop has streams to end with the
  // retry hint, whatever the timing of the others (paid 3 to 8 s after they are made).
  const held = new Set<string>();
  const payStarted = new Set<string>();
  let releaseHeld = () => {};
  const heldUntil = new Promise<void>((resolve) => (releaseHeld = resolve));
  const traffic = shoppers({
    front,
    quoteRate: 10,
    quoteBody: () => bodies[Math.floor(Math.random() * bodies.length)] as string,
    orderRate: 2,
    payAfterMs: () => 3000 + Math.random() * 5000,
    pay: async (id) => {
      payStarted.add(id);
      if (held.has(id)) await heldUntil;
      await deployment.pay(id);
    },
    connections: 50,
  });
  let phases: Phase[] = [];
  const log: string[] = [];
  try {
    // The restarts begin once shoppers are under way (a condition, not a time), with three streams held.
    await waitFor(
      async () => {
        for (const order of traffic.orders) {
          const id = order.upstreamOrderId;
          if (held.size < 3 && id && order.connections.length && !payStarted.has(id)) held.add(id);
        }
        const made = traffic.orders.map((order) => order.attempt.status);
        assert.ok(held.size >= 3, `${held.size} held; creations answered ${JSON.stringify(made)}`);
      },
      'three orders followed and held before the restarts',
      60_000,
    );
    phases = await rollingRestart(deployment, {
      killIndex: 1,
      log: (line) => log.push(`${Math.round(performance.now())} ${line}`),
    });
    releaseHeld();
    // And go on until orders made after the last restart are followed too.
    const madeBefore = traffic.orders.length;
    await waitFor(
      async () => {
        const since = traffic.orders.slice(madeBefore).map((order) => order.attempt.status);
        assert.ok(since.length >= 4, `answered since: ${JSON.stringify(since)}`);
      },
      'four more orders after the restarts',
      60_000,
    );
  } finally {
    releaseHeld();
    await traffic.stop();
  }
  const context = () =>
    `\nrestarts: ${JSON.stringify(phases)}\n${log.join('\n')}\nHAProxy:\n${deployment.haproxyOutput().slice(-6000)}`;

  // Each graceful stop drained and exited 0, its steps in its log.
  for (const phase of phases.filter((p) => p.kind === 'SIGTERM')) {
    assert.equal(phase.exitCode, 0, `${phase.instance} exit code${context()}`);
  }
  for (const instance of instances)
    assert.match(instance.output(), /SIGTERM: \/readyz answers 503/, instance.name);
  const kill = phases.find((phase) => phase.kind === 'SIGKILL') as Phase;
  assert.ok(kill && phases.length === 4);
  /** In flight on the killed instance when it died: sent before the kill, answered after it. */
  const inFlightAtKill = (attempt: Attempt) => attempt.dueAt <= kill.from && attempt.doneAt >= kill.from;

  // Quotes: none failed, but for one in flight at the kill (HAProxy sends those again elsewhere: none expected).
  const { quotes, orders } = traffic;
  assert.ok(quotes.length >= 100, `${quotes.length} quotes sent`);
  const failedQuotes = quotes.filter((quote) => quote.status !== 200);
  assert.deepEqual(
    failedQuotes.filter((quote) => !inFlightAtKill(quote)).map((quote) => describeAttempt(quote, phases)),
    [],
    `quotes failed (of ${quotes.length})${context()}`,
  );
  const duringRestarts = (attempt: Attempt) => during(phases, attempt.dueAt) !== undefined;
  assert.ok(
    quotes.filter(duringRestarts).length >= 50,
    'quotes were asked for during the restarts, not only around them',
  );

  // Orders: created, but for one in flight at the kill: its retry finds the dead process's claim (409), or the
  // order it made before it died (the key's replay: 200 and that order, followed and paid like any other).
  const failedOrders = orders.filter((order) => order.attempt.status !== 201);
  assert.deepEqual(
    failedOrders
      .filter((order) => !inFlightAtKill(order.attempt))
      .map((order) => describeAttempt(order.attempt, phases)),
    [],
    `order creations failed (of ${orders.length})${context()}`,
  );
  for (const order of failedOrders)
    assert.ok(
      order.attempt.status === 409 || (answeredAnOrder(order.attempt) && order.orderId !== undefined),
      describeAttempt(order.attempt, phases),
    );
  const created = orders.filter((order) => order.orderId);
  assert.ok(
    created.filter((order) => duringRestarts(order.attempt)).length >= 8,
    'orders made during the restarts',
  );

  // Every status stream saw the order paid, however many connections it took.
  for (const order of created) {
    assert.ok(order.paidAt, `order ${order.orderId} was paid`);
    assert.equal(order.statuses.at(-1), 'paid', `${order.orderId}: ${JSON.stringify(order)}`);
    for (const connection of order.connections) {
      if (connection.ending === 'final' || connection.ending === 'retry') continue;
      // A stream ends cut, or a connection is refused, only with the instance killed under it.
      const killed = connection.at <= kill.to && connection.endedAt >= kill.from;
      assert.ok(killed, `${order.orderId}: a stream connection ${JSON.stringify(connection)}${context()}`);
    }
  }
  const reconnected = created.filter((order) => order.connections.some((c) => c.ending === 'retry'));
  for (const order of created.filter((order) => held.has(order.upstreamOrderId as string)))
    assert.ok(
      order.connections.some((c) => c.ending === 'retry'),
      `${order.orderId}, open across the restarts, was ended by a shutdown with the retry hint and reconnected: ${JSON.stringify(order.connections)}${context()}`,
    );

  // One order per Idempotency-Key: its key answers with the same order, and the upstream holds one for it.
  const orderIds = new Set(created.map((order) => order.orderId));
  assert.equal(orderIds.size, created.length, 'each key made its own order');
  for (const order of created) {
    const replay = await fetch(`${front}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: shopOrigin, 'idempotency-key': order.key },
      body: JSON.stringify({ product: 'hoodie' }),
    });
    assert.equal(replay.status, 200, `replay of ${order.key}`);
    assert.equal(((await replay.json()) as { orderId: string }).orderId, order.orderId);
    assert.equal(
      await deployment.upstreamOrdersFor(order.orderId as string),
      1,
      `upstream orders for ${order.orderId}`,
    );
  }

  // The merchant's receiver, deduping by webhook-id: each order's created and paid events, each under one id.
  const expected = created.flatMap((order) => [
    `${order.orderId} order.created`,
    `${order.orderId} order.paid`,
  ]);
  const received = () => new Set(deployment.deliveries.map((d) => `${d.orderId} ${d.type}`));
  await waitFor(
    async () => {
      const missing = expected.filter((event) => !received().has(event));
      if (missing.length) throw new Error(`not yet received: ${missing.slice(0, 5).join(', ')}…`);
    },
    'every event delivered',
    120_000,
  );
  const idsByEvent = new Map<string, Set<string>>();
  for (const delivery of deployment.deliveries) {
    const event = `${delivery.orderId} ${delivery.type}`;
    idsByEvent.set(event, (idsByEvent.get(event) ?? new Set()).add(delivery.id));
  }
  for (const event of expected) assert.equal(idsByEvent.get(event)?.size, 1, `${event} under one webhook-id`);
  // Delivered twice (the same id) only if the first copy went out around the kill: the killed instance sent it and
  // died before recording it, and another sent it again when its lease ran out. "Around": from 15 s before the kill
  // until the instance was back, as this process may read a copy sent just before the kill only after sending it.
  const mentions = (text: string) =>
    instances
      .flatMap((i) =>
        i
          .output()
          .split('\n')
          .filter((line) => line.includes(text))
          .map((line) => `${i.name}: ${line}`),
      )
      .join('\n');
  const firstAt = new Map<string, number>();
  for (const delivery of deployment.deliveries) {
    const first = firstAt.get(delivery.id);
    if (first === undefined) firstAt.set(delivery.id, delivery.at);
    else {
      const copies = deployment.deliveries
        .filter((d) => d.id === delivery.id)
        .map((d) => `${Math.round(d.at - kill.from)} ms`);
      assert.ok(
        first >= kill.from - 15_000 && first <= kill.to,
        `${delivery.id} delivered twice, at ${copies.join(' and ')} from the kill\n${mentions(delivery.id)}${context()}`,
      );
    }
  }
  assert.deepEqual(await deployment.states(), ['UP', 'UP', 'UP']);
  const duplicates = deployment.deliveries.length - firstAt.size;
  t.diagnostic(
    `${quotes.length} quotes (${failedQuotes.length} failed, in flight at the kill), ${orders.length} orders ` +
      `(${failedOrders.length} not created, in flight at the kill: ${failedOrders.map((order) => order.attempt.status).join(', ') || 'none'}), ${reconnected.length} streams reconnected on a retry ` +
      `hint, ${deployment.deliveries.length} webhook deliveries of ${firstAt.size} events (${duplicates} again); ` +
      `restarts: ${phases.map((p) => `${p.kind} ${p.instance} ${Math.round(p.to - p.from)} ms`).join(', ')}`,
  );
});
