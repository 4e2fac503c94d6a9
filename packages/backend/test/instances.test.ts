/**
 * Three instances (the built CLI, one process each) on one PostgreSQL and one Redis behave as one backend:
 * one upstream order for one Idempotency-Key whichever instances the retries reach, a status learnt by one
 * instance reaches a stream open on another, and a crashed instance loses nothing it acknowledged.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type ServerType, serve } from '@hono/node-server';
import { type Cluster, type Instance, shopOrigin, startCluster } from './instance-cluster.ts';
import { type Created, statusEvents, upstreamIdOf } from './order-fixtures.ts';
import { type PrometheusServer, startPrometheus } from './prometheus-server.ts';
import { waitFor } from './servers.ts';
import { testSecrets } from './support.ts';

const metricsToken = 'cluster-metrics-token-0123456789';
let cluster: Cluster;
let prometheus: PrometheusServer;
/** The merchant's receiver of fulfilment events (all instances deliver to it): the event ids it took. */
let receiver: ServerType | undefined;
const received = new Map<string, string>();
before(async () => {
  const receiverUrl = await new Promise<string>((resolve) => {
    receiver = serve(
      {
        hostname: '127.0.0.1',
        port: 0,
        // Read to the end, as a receiver does: an unread body would hold the instance's kept-alive connection.
        fetch: async (request) => {
          const body = await request.text();
          const event = JSON.parse(body) as { type: string; data: { orderId?: string } };
          received.set(request.headers.get('webhook-id') ?? '', `${event.type} ${event.data.orderId}`);
          return new Response(null, { status: 204 });
        },
      },
      (info) => resolve(`http://127.0.0.1:${(info as AddressInfo).port}/hooks`),
    );
  });
  cluster = await startCluster({
    env: {
      METRICS: 'on',
      METRICS_TOKEN: metricsToken,
      MERCHANT_WEBHOOK_URL: receiverUrl,
      MERCHANT_WEBHOOK_SECRET: 'whsec_Vb7rT2xQ9mLk4NzP8sW3cYd6Hf1Ja5Ue',
    },
  });
  prometheus = await startPrometheus({
    targets: cluster.instances.map((instance) => new URL(instance.url).host),
    token: metricsToken,
  });
});
after(async () => {
  await prometheus?.stop();
  await cluster?.close();
  receiver?.close();
});

const create = (instance: Instance, key: string, product = 'hoodie') =>
  fetch(`${instance.url}/api/orders`, {
    method: 'POST',
    headers: { origin: shopOrigin, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ product }),
  });

describe('three instances on one PostgreSQL and one Redis', () => {
  test('Prometheus scrapes the three; PromQL over what it scraped returns the requests, orders and deliveries made', {
    timeout: 180_000,
  }, async () => {
    const sum = async (promql: string) =>
      (await prometheus.query(promql)).reduce((total, sample) => total + sample.value, 0);
    await waitFor(
      async () => {
        assert.equal(await sum('count(up{job="checkout"} == 1)'), 3, 'three targets up');
        // Scraped at least once since the instances started: every series is there (at 0 before anything happens).
        assert.equal((await prometheus.query('checkout_ready')).length, 3, 'checkout_ready of each');
      },
      'Prometheus scraping the three instances',
      30_000,
    );
    const deliveredBefore = received.size;
    const before = {
      creates: await sum('sum(checkout_http_requests_total{route="/api/orders",method="POST",status="201"})'),
      orders: await sum('sum(checkout_orders_created_total)'),
      delivered: await sum('sum(checkout_event_delivery_attempts_total{outcome="delivered"})'),
    };
    // Six orders, two through each instance.
    const made: Created[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await create(cluster.instances[i % 3] as Instance, `prom-${randomUUID()}`);
      assert.equal(response.status, 201);
      made.push((await response.json()) as Created);
    }
    // Their order.created events reach the receiver, delivered by whichever instance's worker claimed each.
    const told = () => new Set(received.values());
    await waitFor(
      async () => {
        const missing = made.filter((order) => !told().has(`order.created ${order.orderId}`));
        assert.equal(missing.length, 0, `${missing.length} of 6 order.created events not received`);
      },
      'the six order.created events delivered',
      60_000,
    );
    const delivered = received.size;
    await waitFor(
      async () => {
        const creates = await sum(
          'sum(checkout_http_requests_total{route="/api/orders",method="POST",status="201"})',
        );
        assert.equal(creates - before.creates, 6, 'POST /api/orders 201, over the three instances');
        const perInstance = await prometheus.query(
          'sum by (instance) (checkout_http_requests_total{route="/api/orders",method="POST",status="201"})',
        );
        assert.equal(perInstance.length, 3, 'each instance answered some');
        assert.equal((await sum('sum(checkout_orders_created_total)')) - before.orders, 6, 'orders created');
        assert.ok(
          (await sum('sum(checkout_event_delivery_attempts_total{outcome="delivered"})')) -
            before.delivered >=
            delivered - deliveredBefore,
          'deliveries counted',
        );
      },
      'PromQL to show the six orders and their deliveries',
      30_000,
    );
    // No id in any label: the orders' own ids are nowhere in what Prometheus holds.
    const series = await prometheus.query('{job="checkout", __name__=~"checkout_.+"}');
    const labels = JSON.stringify(series.map((sample) => sample.metric));
    for (const order of made) assert.ok(!labels.includes(order.orderId), `${order.orderId} in a label`);
  });

  test('50 concurrent creates with one Idempotency-Key over three instances, 20% of upstream calls failing → one upstream order', {
    timeout: 60_000,
  }, async () => {
    // One in five payments API calls fails (creates and the look-ups a retry makes before creating again).
    await cluster.control('POST', '/faults', { route: '/pay-api/*', status: 500, probability: 0.2 });
    const key = `cluster-${randomUUID()}`;
    const before = cluster.upstreamOrders.size;
    try {
      const answers = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const response = await create(cluster.instances[i % 3] as Instance, key);
          return {
            status: response.status,
            body: (await response.json()) as Created & { error?: { code: string } },
          };
        }),
      );
      for (const answer of answers) {
        assert.ok(
          // 201 made, 200 replayed, 409 still in progress elsewhere, 502 this attempt's upstream call failed.
          [200, 201, 409, 502].includes(answer.status),
          `${answer.status} ${JSON.stringify(answer.body)}`,
        );
      }
      // A client retries until it is answered; any instance may take the retry.
      const answered = answers.filter((answer) => answer.status === 200 || answer.status === 201);
      let settled = answered[0]?.body;
      for (let attempt = 0; !settled && attempt < 50; attempt += 1) {
        const response = await create(cluster.instances[attempt % 3] as Instance, key);
        if (response.status === 200 || response.status === 201) settled = (await response.json()) as Created;
        else await response.body?.cancel();
      }
      assert.ok(settled, 'the key was never answered with an order');
      const orderIds = new Set(answered.map((a) => a.body.orderId));
      assert.ok(orderIds.size <= 1, `several orders: ${[...orderIds].join(', ')}`);
      // Every instance replays the same order for the key.
      for (const instance of cluster.instances) {
        const replay = await create(instance, key);
        assert.equal(replay.status, 200);
        assert.equal(replay.headers.get('idempotent-replayed'), 'true');
        assert.equal(((await replay.json()) as Created).orderId, settled.orderId);
      }
      assert.equal(cluster.upstreamOrders.size - before, 1, 'exactly one upstream order');
    } finally {
      await cluster.control('DELETE', '/faults');
    }
  });

  test('an order created on instance 1, its stream open on 2, its webhook delivered to 3 → the stream shows paid', {
    timeout: 60_000,
  }, async () => {
    const [one, two, three] = cluster.instances as [Instance, Instance, Instance];
    const response = await create(one, `cluster-${randomUUID()}`);
    assert.equal(response.status, 201);
    const created = (await response.json()) as Created;
    // Instance 2 cannot learn it by asking the upstream: the order list fails for as long as this test runs.
    await cluster.control('POST', '/faults', { route: '/pay-api/v1/orders', method: 'GET', status: 500 });
    try {
      const stream = await fetch(
        `${two.url}/api/orders/${created.orderId}/events?token=${created.statusToken}`,
      );
      assert.equal(stream.status, 200);
      const statuses = statusEvents(stream);
      // The stream is open and has told its first status; only then does the shopper pay.
      assert.equal(await statuses.next(), 'pending');
      await cluster.control('POST', `/orders/${upstreamIdOf(created)}/pay`, { kind: 'exact' });
      let last = 'pending';
      while (last !== 'paid') {
        const next = await statuses.next();
        assert.ok(next, `the stream ended at ${last}`);
        last = next;
      }
      await statuses.close();
      // The webhook went to instance 3, and only there.
      const deliveries = (await cluster.control('GET', '/deliveries?merchant=test')) as {
        data: Array<{ url: string; body: string; attempts: Array<{ status: number }> }>;
      };
      const paid = deliveries.data.filter((d) => d.body.includes(upstreamIdOf(created)));
      assert.ok(paid.length > 0);
      for (const delivery of paid) assert.ok(delivery.url.startsWith(three.url), delivery.url);
    } finally {
      await cluster.control('DELETE', '/faults');
    }
  });

  test('kill -9 of one instance under load: the others keep answering; after its restart every acknowledged order, key and event is there', {
    timeout: 60_000,
  }, async () => {
    const [victim, ...others] = cluster.instances as [Instance, Instance, Instance];
    const acknowledged: Array<{ key: string; created: Created }> = [];
    const othersFailed: string[] = [];
    let stop = false;
    let sent = 0;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i += 1) {
        const instance = cluster.instances[(w + i) % 3] as Instance;
        const key = `crash-${randomUUID()}`;
        sent += 1;
        try {
          const response = await create(instance, key, i % 2 ? 'hoodie' : 'sticker-pack');
          if (response.status === 201)
            acknowledged.push({ key, created: (await response.json()) as Created });
          else if (instance !== victim) othersFailed.push(`${response.status} ${await response.text()}`);
          else await response.body?.cancel();
        } catch (error) {
          // A connection the crash cut is no answer (and nothing was acknowledged); elsewhere it is a failure.
          if (instance !== victim) othersFailed.push(String(error));
        }
      }
    };
    const workers = Array.from({ length: 6 }, (_, w) => worker(w));
    const acknowledgedAtLeast = (count: number) => async () =>
      assert.ok(acknowledged.length >= count, `${acknowledged.length} acknowledged`);
    try {
      // Crash once the load is well under way (a condition, not a time), then go on until 30 more are in.
      await waitFor(acknowledgedAtLeast(30), 'thirty orders acknowledged before the crash');
      await victim.crash();
      await waitFor(
        acknowledgedAtLeast(acknowledged.length + 30),
        'thirty more acknowledged after the crash',
      );
    } finally {
      // Stopped whatever happened, so a failed wait cannot leave the load running.
      stop = true;
      await Promise.all(workers);
    }
    assert.deepEqual(othersFailed, [], `the surviving instances failed ${othersFailed.length} of ${sent}`);

    await victim.start();
    for (const { key, created } of acknowledged) {
      for (const instance of [victim, ...others]) {
        const order = await fetch(
          `${instance.url}/api/orders/${created.orderId}?token=${created.statusToken}`,
        );
        assert.equal(order.status, 200, `order ${created.orderId} on ${instance.url}`);
        await order.body?.cancel();
      }
      const replay = await create(victim, key, 'ignored-product-changes-nothing');
      // The same key with another body is refused as a conflict: the record is there, tied to its body.
      assert.equal(replay.status, 409);
      await replay.body?.cancel();
      const events = await fetch(`${victim.url}/api/admin/events?orderId=${created.orderId}`, {
        headers: { authorization: `Bearer ${testSecrets.adminToken}` },
      });
      const { events: list } = (await events.json()) as { events: Array<{ type: string }> };
      assert.ok(
        list.some((event) => event.type === 'order.created'),
        `order.created of ${created.orderId}`,
      );
    }
  });
});
