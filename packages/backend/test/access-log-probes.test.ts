/**
 * The access log and the probes: by default (ACCESS_LOG_PROBES=off) a load balancer's /readyz, an uptime check's
 * /healthz and Prometheus's /metrics leave no line when they succeed, while a failed one (a scraper with a wrong
 * token) and every shopper request still do; ACCESS_LOG_PROBES=on logs them all. The built CLI, its real stdout.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CliProcess, startCli } from './cli-process.ts';

const metricsToken = 'probes-test-metrics-token';

/** The access-log lines (those with a route) a backend wrote for the requests below, once it has stopped. */
async function requestLines(env: Record<string, string>) {
  const backend: CliProcess = await startCli({
    ACCESS_LOG: 'on',
    METRICS: 'on',
    METRICS_TOKEN: metricsToken,
    ...env,
  });
  try {
    const get = (path: string, token?: string) =>
      fetch(`${backend.url}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    assert.equal((await get('/healthz')).status, 200);
    assert.equal((await get('/readyz')).status, 200);
    assert.equal((await get('/metrics', metricsToken)).status, 200);
    assert.equal((await get('/metrics', 'not-the-token')).status, 401);
    assert.equal((await get('/api/catalog?country=DE')).status, 200);
  } finally {
    // Stopping flushes what the logger still holds.
    await backend.stop();
  }
  return backend
    .lines()
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { route?: string; status?: number })
    .filter((line) => line.route !== undefined)
    .map((line) => `${line.route} ${line.status}`);
}

test('by default the probes and scrapes that succeed leave no access line; a failed one and shoppers do', async () => {
  const [quiet, all] = await Promise.all([requestLines({}), requestLines({ ACCESS_LOG_PROBES: 'on' })]);
  assert.ok(quiet.includes('/api/catalog 200'), quiet.join('\n'));
  assert.ok(quiet.includes('/metrics 401'), 'a scraper refused is logged');
  assert.deepEqual(
    quiet.filter((line) => /^\/(healthz|readyz|metrics) 2/.test(line)),
    [],
    'no successful probe logged',
  );
  for (const line of ['/healthz 200', '/readyz 200', '/metrics 200', '/metrics 401', '/api/catalog 200'])
    assert.ok(all.includes(line), `ACCESS_LOG_PROBES=on logs ${line}: ${all.join(', ')}`);
});
