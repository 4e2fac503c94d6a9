/**
 * An upstream outage behind the shipped load balancer (README "Production", "Watch it"): three backends (the built
 * CLI on one PostgreSQL and one Redis) behind Debian's HAProxy with deploy/haproxy.cfg as shipped, one standalone
 * sandbox as their upstream, and a real Prometheus scraping the three with the shipped alert rules
 * (deploy/prometheus/alerts.yml). The sandbox then answers 503 to every ramp and payments call.
 *
 * Every instance stays in HAProxy's rotation (its /readyz still answers 200, the upstream named in `degraded`),
 * quotes of a combination priced before the outage are still answered through HAProxy, one never priced is
 * refused with words that say the payment service is unavailable, and exactly one alert fires for the service
 * (CheckoutUpstreamDown), none per instance.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ReadinessReport } from '../src/checks/readiness.ts';
import { type PrometheusServer, startPrometheus } from './prometheus-server.ts';
import { type Deployment, startDeployment } from './rolling.ts';
import { waitFor } from './servers.ts';

const metricsToken = 'outage-test-metrics-token';
let deployment: Deployment;
let prometheus: PrometheusServer;

before(async () => {
  deployment = await startDeployment({
    env: {
      METRICS: 'on',
      METRICS_TOKEN: metricsToken,
      // A reference keeps pricing while the ramp cannot answer for as long as this test runs (default 60 s).
      QUOTE_DERIVE_MAX_STALE_MS: '600000',
    },
  });
  prometheus = await startPrometheus({
    targets: deployment.instances.map((instance) => new URL(instance.url).host),
    token: metricsToken,
  });
});
after(async () => {
  await prometheus?.stop();
  await deployment?.close();
});

/** HAProxy's statistics of each instance: its state and how many times it went from UP to DOWN. */
async function haproxyServers(): Promise<Array<{ name: string; status: string; chkdown: number }>> {
  const [header = '', ...rows] = (await (await fetch(deployment.statsUrl)).text()).trim().split('\n');
  const columns = header.replace(/^# /, '').split(',');
  const at = (row: string[], column: string) => row[columns.indexOf(column)] ?? '';
  return deployment.instances.map(({ name }) => {
    const row = rows
      .map((line) => line.split(','))
      .find((cells) => cells[0] === 'crypto_checkout' && cells[1] === name);
    assert.ok(row, `HAProxy lists ${name}`);
    return { name, status: at(row, 'status'), chkdown: Number(at(row, 'chkdown')) };
  });
}

const quote = (base: string, body: Record<string, string>) =>
  fetch(`${base}/api/quotes/buy`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

test('the upstream down: every instance stays in rotation, warm quotes are answered, one alert fires', {
  timeout: 600_000,
}, async () => {
  const { front, instances } = deployment;
  const catalog = (await (await fetch(`${front}/api/catalog?country=DE`)).json()) as {
    paymentMethods: Array<{ id: string; currencies: string[] }>;
    cryptos: Array<{ code: string }>;
  };
  const [method, otherMethod] = catalog.paymentMethods;
  const [crypto, otherCrypto] = catalog.cryptos;
  assert.ok(method && otherMethod && crypto && otherCrypto, 'a catalog to quote from');
  const fiat = (m: { currencies: string[] }) =>
    m.currencies.includes('EUR') ? 'EUR' : (m.currencies[0] ?? '');
  const warm = { paymentMethod: method.id, country: 'DE', fiat: fiat(method), crypto: crypto.code };
  const cold = {
    paymentMethod: otherMethod.id,
    country: 'DE',
    fiat: fiat(otherMethod),
    crypto: otherCrypto.code,
  };
  // A shopper priced the warm combination on each instance before the outage (each keeps its own references).
  for (const instance of instances) {
    const response = await quote(instance.url, { ...warm, fiatAmount: '100' });
    assert.equal(response.status, 200, await response.text());
  }
  await waitFor(
    async () => {
      const up = await prometheus.query('sum(checkout_upstream_up{job="checkout"})');
      assert.equal(up[0]?.value, 6, 'three instances see both services up');
    },
    'Prometheus sees the upstream up',
    60_000,
  );
  const before = await haproxyServers();
  assert.deepEqual(
    before.map((server) => server.status),
    ['UP', 'UP', 'UP'],
  );

  // The outage: the provider answers 503 to everything, the instances' probes included.
  for (const route of ['/ramp/*', '/pay-api/*']) {
    const response = await fetch(`${deployment.sandboxUrl}/control/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ route, status: 503 }),
    });
    assert.equal(response.status, 200, await response.text());
  }
  // HAProxy's view, watched until the end: any instance seen out of the rotation is kept.
  const seenOut: string[] = [];
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      for (const server of await haproxyServers()) {
        if (server.status !== 'UP') seenOut.push(`${server.name} ${server.status}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  try {
    // Each instance's next probe (at most 30 s after its last) finds the upstream down: it says so, and stays ready.
    await waitFor(
      async () => {
        for (const instance of instances) {
          const response = await fetch(`${instance.url}/readyz`);
          const body = (await response.json()) as ReadinessReport;
          assert.equal(response.status, 200, `${instance.name}: ${JSON.stringify(body.failing)}`);
          assert.deepEqual(body.degraded, ['upstreamRamp', 'upstreamPayments'], instance.name);
          assert.match(body.checks.upstreamPayments.lastError?.message ?? '', /answered 503/);
        }
      },
      'every instance reports the upstream degraded',
      90_000,
    );

    // Shoppers: the warm combination is priced (any amount, whichever instance HAProxy picks); one never priced
    // is refused in words that say what is going on.
    for (const fiatAmount of ['100', '120', '250', '100', '120', '250']) {
      const response = await quote(front, { ...warm, fiatAmount });
      assert.equal(response.status, 200, `${fiatAmount}: ${await response.text()}`);
    }
    const refused = await quote(front, { ...cold, fiatAmount: '100' });
    const { error } = (await refused.json()) as { error: { code: string; message: string } };
    assert.equal(refused.status, 502);
    assert.equal(error.code, 'UPSTREAM_ERROR');
    assert.match(error.message, /payment service is temporarily unavailable/);

    // One page for the service, once its `for` (2 min) has passed; nothing for any single instance.
    await waitFor(
      async () => {
        const firing = await prometheus.query('ALERTS{alertstate="firing"}');
        assert.deepEqual(
          firing.map((alert) => alert.metric['alertname']),
          ['CheckoutUpstreamDown'],
        );
      },
      'CheckoutUpstreamDown firing, alone',
      240_000,
    );
    const perInstance = await prometheus.query(
      'ALERTS{alertname=~"CheckoutNotReady|CheckoutReadinessCheckFailing|CheckoutInstanceDown|CheckoutInstanceUpstreamFailing"}',
    );
    assert.deepEqual(perInstance, [], 'no alert, pending or firing, for any one instance');
    const [page] = await prometheus.query('ALERTS{alertname="CheckoutUpstreamDown"}');
    assert.equal(page?.metric['severity'], 'page');
    assert.equal(page?.metric['instance'], undefined, 'the service, not an instance');
  } finally {
    watching = false;
    await watcher;
  }
  assert.deepEqual(seenOut, [], 'HAProxy took no instance out');
  const afterwards = await haproxyServers();
  assert.deepEqual(
    afterwards.map((server) => [server.status, server.chkdown]),
    before.map((server) => ['UP', server.chkdown]),
    'every instance UP, none went DOWN meanwhile',
  );
});
