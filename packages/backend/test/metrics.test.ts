/**
 * `/metrics`: off by default; on with METRICS=on behind a bearer token, or on a listener of its own; Prometheus's
 * text format (read back with prom-client's own parser's rules: name{labels} value); every series the operator
 * needs after a real flow over HTTP, labelled by route template and never by an id.
 */
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';
import { createDeliveryWorker } from '../src/events/delivery-worker.ts';
import { createRuntime } from '../src/process/runtime.ts';
import { createOrder, productsFile, statusEvents, upstreamIdOf } from './order-fixtures.ts';
import { freePort } from './servers.ts';
import { startStack, testSecrets } from './support.ts';

const token = 'metrics-token-for-tests-0123456789';
const auth = { authorization: `Bearer ${token}` };

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a text exposition (comments skipped). */
function samples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(match, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1] as string] = pair[2] as string;
    out.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return out;
}

const value = (all: Sample[], name: string, labels: Record<string, string> = {}) =>
  all
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);

describe('/metrics', () => {
  test('off by default: no /metrics at all', async () => {
    const stack = await startStack();
    try {
      assert.equal((await stack.api('/metrics')).status, 404);
    } finally {
      await stack.close();
    }
  });

  test('METRICS=on is refused without a token or a port of its own', () => {
    assert.throws(
      () => loadConfig({ METRICS: 'on' }),
      (error: unknown) =>
        error instanceof ConfigError && /METRICS_TOKEN .* or METRICS_PORT/.test(error.message),
    );
    assert.throws(() => loadConfig({ METRICS: 'on', METRICS_TOKEN: 'short' }), /at least 16 characters/);
  });

  test('behind its bearer token, every series after a real flow, labelled by route template, never by an id', {
    timeout: 60_000,
  }, async () => {
    const heard: string[] = [];
    const stack = await startStack({
      env: { METRICS: 'on', METRICS_TOKEN: token, PRODUCTS_FILE: productsFile },
      onEvent: async (event) => {
        heard.push(event.type);
      },
    });
    try {
      assert.equal((await stack.api('/metrics')).status, 401);
      assert.equal((await stack.api('/metrics', { headers: { authorization: 'Bearer wrong' } })).status, 401);

      // Shoppers: quotes (upstream, then derived, then an answer given again), one turned away.
      const quote = (fiatAmount: string) =>
        stack.api('/api/quotes/buy', {
          method: 'POST',
          json: { paymentMethod: 'creditcard', country: 'DE', fiat: 'EUR', crypto: 'USDC_BASE', fiatAmount },
        });
      for (const amount of ['50', '60', '60', '60']) assert.equal((await quote(amount)).status, 200);
      assert.equal((await quote('1')).status, 422);
      // An order, its stream, and its payment told by webhook.
      const created = await createOrder(stack);
      const stream = await stack.api(`/api/orders/${created.orderId}/events?token=${created.statusToken}`);
      const events = statusEvents(stream);
      assert.equal(await events.next(), 'pending');
      const open = samples(await (await stack.api('/metrics', { headers: auth })).text());
      assert.equal(value(open, 'checkout_order_status_streams_open'), 1);
      await stack.control('POST', `/orders/${upstreamIdOf(created)}/pay`, { kind: 'exact' });
      for (let status = 'pending'; status !== 'paid'; ) {
        const next = await events.next();
        assert.ok(next, `the stream ended at ${status}`);
        status = next;
      }
      await events.close();
      // Webhooks: a bad signature, and one event twice.
      const body = JSON.stringify({ eventId: `evt-${randomUUID()}`, eventType: 'ORDER_CREATED' });
      const signature = createHmac('sha256', testSecrets.payWebhookSecret).update(body).digest('base64');
      const webhook = (sig: string) =>
        stack.api('/api/webhooks/payments', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-swapped-signature': sig },
          body,
        });
      assert.equal((await webhook('bad')).status, 401);
      assert.equal((await webhook(signature)).status, 200);
      assert.equal((await webhook(signature)).status, 200);
      // The events the order caused: waiting, then delivered by a worker pass.
      const before = samples(await (await stack.api('/metrics', { headers: auth })).text());
      assert.ok(value(before, 'checkout_event_deliveries_pending') >= 2);
      assert.ok(value(before, 'checkout_event_delivery_oldest_pending_age_seconds') >= 0);
      const worker = createDeliveryWorker({
        outbox: stack.deps.outbox,
        clock: stack.deps.clock,
        secrets: undefined,
        onEvent: async (event) => {
          heard.push(event.type);
        },
        observe: stack.deps.metrics.deliveryAttempt,
      });
      // Events of one order go one after another (events/outbox.ts): a pass each, until none is due.
      for (let pass = 0; pass < 5; pass += 1) await worker.tick();

      const response = await stack.api('/metrics', { headers: auth });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      const text = await response.text();
      const all = samples(text);
      // Requests, by route template: the order's own id is in no label.
      assert.equal(
        value(all, 'checkout_http_requests_total', { route: '/api/quotes/buy', status: '200' }),
        4,
      );
      assert.equal(
        value(all, 'checkout_http_requests_total', { route: '/api/orders', method: 'POST', status: '201' }),
        1,
      );
      assert.equal(
        value(all, 'checkout_http_requests_total', { route: '/api/orders/:id/events', status: '200' }),
        1,
      );
      assert.equal(value(all, 'checkout_http_requests_total', { route: '/metrics', status: '401' }), 2);
      assert.ok(
        value(all, 'checkout_http_request_duration_seconds_count', { route: '/api/quotes/buy' }) >= 5,
      );
      const at = text.indexOf(created.orderId);
      assert.ok(
        at < 0,
        `an order id (${created.orderId}) in a label: …${text.slice(Math.max(0, at - 200), at + 60)}…`,
      );
      assert.ok(!text.includes(created.statusToken), 'a status token in a label');
      const routes = new Set(
        all.filter((s) => s.name === 'checkout_http_requests_total').map((s) => s.labels['route']),
      );
      for (const route of routes) assert.match(route ?? '', /^(\/[\w.:*-]*)+$|^unmatched$/);
      // The upstream, by service, endpoint (no query) and outcome, and the budget.
      assert.ok(
        value(all, 'checkout_upstream_requests_total', {
          service: 'ramp',
          endpoint: '/api/v1/merchant/pricing',
          outcome: 'ok',
        }) >= 1,
      );
      assert.ok(
        value(all, 'checkout_upstream_requests_total', {
          service: 'payments',
          endpoint: '/orders',
          outcome: 'ok',
        }) >= 1,
      );
      assert.ok(value(all, 'checkout_upstream_request_duration_seconds_count', { service: 'ramp' }) >= 1);
      assert.ok(value(all, 'checkout_upstream_budget_granted_total') >= 1);
      assert.equal(value(all, 'checkout_upstream_budget_per_second'), stack.config.upstreamBudget);
      assert.equal(value(all, 'checkout_upstream_throttled_total'), 0);
      for (const name of ['checkout_upstream_budget_waits_total', 'checkout_upstream_budget_refusals_total'])
        assert.ok(
          all.some((s) => s.name === name),
          name,
        );
      // Quotes by source, the refusal by its code, the drift sampler's series.
      // Each answer counted once, by where it came from: how many of the first ones the upstream priced depends on
      // how soon the combination's fee correction is learnt (quotes/learn.ts); a repeat is given again at the end.
      const upstream = value(all, 'checkout_quotes_total', { side: 'buy', source: 'upstream' });
      const derived = value(all, 'checkout_quotes_total', { side: 'buy', source: 'derived' });
      const cached = value(all, 'checkout_quotes_total', { side: 'buy', source: 'cached' });
      assert.ok(upstream >= 1, 'the first quote came from the upstream');
      assert.ok(derived >= 1, 'a later amount was derived');
      assert.ok(cached >= 1, 'a repeat was given again');
      assert.equal(upstream + derived + cached, 4);
      assert.equal(value(all, 'checkout_quotes_refused_total', { side: 'buy', reason: 'AMOUNT_TOO_LOW' }), 1);
      assert.equal(
        value(all, 'checkout_quote_drift_threshold_ratio'),
        stack.config.quoteEngine.driftThreshold,
      );
      for (const name of [
        'checkout_quote_drift_samples_total',
        'checkout_quote_drift_ratio',
        'checkout_quote_combinations_upstream_only',
      ])
        assert.ok(
          all.some((s) => s.name === name),
          name,
        );
      // Orders, status changes, webhooks, deliveries, streams.
      assert.equal(value(all, 'checkout_orders_created_total'), 1);
      assert.equal(
        value(all, 'checkout_order_status_changes_total', { status: 'paid', source: 'webhook' }),
        1,
      );
      assert.ok(
        value(all, 'checkout_webhooks_received_total', { source: 'payments', outcome: 'verified' }) >= 2,
      );
      assert.equal(
        value(all, 'checkout_webhooks_received_total', { source: 'payments', outcome: 'refused' }),
        1,
      );
      assert.equal(
        value(all, 'checkout_webhooks_received_total', { source: 'payments', outcome: 'duplicate' }),
        1,
      );
      assert.ok(
        value(all, 'checkout_event_delivery_attempts_total', { target: 'hook', outcome: 'delivered' }) >= 2,
      );
      assert.equal(value(all, 'checkout_event_deliveries_pending'), 0);
      assert.equal(value(all, 'checkout_event_delivery_oldest_pending_age_seconds'), 0);
      assert.equal(value(all, 'checkout_order_status_streams_open'), 0);
      // Readiness, what the instance runs on, and Node's own.
      assert.equal(value(all, 'checkout_ready'), 1);
      assert.equal(value(all, 'checkout_readiness_check_ok', { check: 'storage' }), 1);
      assert.equal(value(all, 'checkout_upstream_up', { service: 'ramp' }), 1);
      assert.equal(value(all, 'checkout_upstream_up', { service: 'payments' }), 1);
      assert.equal(value(all, 'checkout_info', { upstream_mode: 'live', storage: 'memory' }), 1);
      for (const name of [
        'nodejs_eventloop_lag_seconds',
        'nodejs_heap_size_used_bytes',
        'process_resident_memory_bytes',
        'process_cpu_seconds_total',
      ])
        assert.ok(
          all.some((s) => s.name === name),
          name,
        );
      assert.match(text, /^# TYPE nodejs_gc_duration_seconds histogram$/m);
      // Named the Prometheus way: counters end in _total, times are in seconds.
      for (const match of text.matchAll(/^# TYPE (checkout_\w+) (\w+)$/gm)) {
        const [, name, type] = match as unknown as [string, string, string];
        if (type === 'counter') assert.match(name, /_total$/);
        if (/duration|age|lag/.test(name)) assert.match(name, /_seconds$/);
      }
    } finally {
      await stack.close();
    }
  });

  test('METRICS_PORT: served on a listener of its own bound to METRICS_HOST, not on the app', {
    timeout: 30_000,
  }, async () => {
    const metricsPort = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-metrics-'));
    const runtime = await createRuntime(
      loadConfig({
        // A port nothing listens on: the sandbox's address (the readiness probes go there) is nobody else's.
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
        ACCESS_LOG: 'off',
        LOG_LEVEL: 'warn',
        METRICS: 'on',
        METRICS_PORT: String(metricsPort),
        METRICS_HOST: '127.0.0.1',
      }),
    );
    try {
      assert.equal((await runtime.app.request('/metrics')).status, 404);
      const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      assert.equal(response.status, 200);
      const all = samples(await response.text());
      assert.equal(value(all, 'checkout_info', { upstream_mode: 'sandbox', storage: 'sqlite' }), 1);
      // The first scrape already tells each readiness check as /readyz does (the upstream probes fail: nothing
      // listens where they go, which leaves the instance ready and says the upstream is down), and a drain shows
      // in the next one, with checkout_ready, in the same scrape.
      const readyz = (await (await runtime.app.request('/readyz')).json()) as {
        checks: Record<string, { status: string }>;
      };
      for (const [check, { status }] of Object.entries(readyz.checks))
        assert.equal(
          value(all, 'checkout_readiness_check_ok', { check }),
          status === 'failing' ? 0 : 1,
          check,
        );
      assert.equal(value(all, 'checkout_readiness_check_ok', { check: 'storage' }), 1);
      assert.equal(value(all, 'checkout_readiness_check_ok', { check: 'upstreamRamp' }), 0);
      assert.equal(value(all, 'checkout_upstream_up', { service: 'ramp' }), 0);
      assert.equal(value(all, 'checkout_upstream_up', { service: 'payments' }), 0);
      assert.equal(value(all, 'checkout_ready'), 1);
      runtime.markDraining();
      const drained = samples(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text());
      assert.equal(value(drained, 'checkout_readiness_check_ok', { check: 'shutdown' }), 0);
      assert.equal(value(drained, 'checkout_ready'), 0);
    } finally {
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
    await assert.rejects(fetch(`http://127.0.0.1:${metricsPort}/metrics`), 'closed with the runtime');
  });
});
