/**
 * Behind deploy/haproxy.cfg as shipped, three instances (the built CLI, on PostgreSQL and Redis) that trust it
 * (TRUSTED_PROXIES=127.0.0.1, where HAProxy connects from): each shopper is told apart by the address HAProxy saw.
 * Shoppers come from distinct loopback addresses (Linux answers on all of 127.0.0.0/8), so HAProxy sees distinct
 * sources. One client's wrong admin tokens and its flood leave another client alone, a client's own
 * X-Forwarded-For is not believed, the audit log names the client, and `crypto-checkout-backend unlock` lifts a
 * count in Redis for every instance.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Deployment, startDeployment } from './rolling.ts';
import { requestFrom } from './servers.ts';
import { testSecrets } from './support.ts';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const shopper = '127.0.0.2';
const other = '127.0.0.3';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('behind HAProxy, each client is its own', () => {
  let deployment: Deployment;
  before(async () => {
    // The backends' own per-client limit, at its default: HAProxy no longer keeps one.
    deployment = await startDeployment({ env: { RATE_LIMIT_PER_MINUTE: '120' } });
  });
  after(() => deployment?.close());

  /** A request from `from` (a connection of its own, so from that source address). */
  const send = (
    from: string,
    path: string,
    init: { method?: string; headers?: Record<string, string> } = {},
  ) => requestFrom(from, `${deployment.front}${path}`, init);
  const whoAmI = (from: string, token: string, headers: Record<string, string> = {}) =>
    send(from, '/api/admin/credential', { headers: { ...bearer(token), ...headers } }).then((a) => a.status);

  test("10 wrong tokens from one client, naming another in its own X-Forwarded-For: that client is slowed, the other's tokens and its own right one are not", async () => {
    for (let i = 0; i < 10; i += 1)
      assert.equal(await whoAmI(shopper, `wrong-${i}`, { 'x-forwarded-for': other }), 401, `guess ${i + 1}`);
    assert.equal(await whoAmI(shopper, 'wrong-11'), 429);
    // Counted as the client HAProxy saw, not as the address it wrote in its header.
    assert.equal(await whoAmI(other, 'wrong-elsewhere'), 401);
    assert.equal(await whoAmI(other, testSecrets.adminToken), 200);
    // A right credential is checked first: its holder is never kept out.
    assert.equal(await whoAmI(shopper, testSecrets.adminToken), 200);
  });

  test('125 requests from one client: it is limited past 120 (whichever instance answers), the other client is not', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 125; n += 1) statuses.push((await send(shopper, '/api/products')).status);
    const firstRefused = statuses.indexOf(429);
    assert.ok(firstRefused >= 120, `refused from request ${firstRefused + 1}: ${statuses.join(',')}`);
    assert.deepEqual(
      statuses.slice(firstRefused).filter((status) => status !== 429),
      [],
      'refused from then on',
    );
    const answer = await send(other, '/api/products');
    assert.equal(answer.status, 200, answer.body);
  });

  test("the audit log names the client, not HAProxy; `unlock` lifts a client's count in Redis for every instance", async () => {
    const lift = await send(other, '/api/admin/lockouts/192.0.2.44', {
      method: 'DELETE',
      headers: bearer(testSecrets.adminToken),
    });
    assert.equal(lift.status, 200, lift.body);
    const audit = await send(other, '/api/admin/audit?limit=1', { headers: bearer(testSecrets.adminToken) });
    const [entry] = (JSON.parse(audit.body) as { entries: Array<{ action: string; clientIp: string }> })
      .entries;
    assert.deepEqual(entry && { action: entry.action, clientIp: entry.clientIp }, {
      action: 'DELETE /api/admin/lockouts/192.0.2.44',
      clientIp: other,
    });

    assert.equal(await whoAmI(shopper, 'wrong-again'), 429, 'still counted from the first test');
    const child = spawn(process.execPath, [cli, 'unlock', shopper], {
      env: deployment.backendEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(code, 0, output);
    assert.match(
      output,
      new RegExp(`lifted the wrong-credential count of ${shopper.replaceAll('.', '\\.')} in Redis`),
    );
    // Every instance reads the same count: a few tries reach more than one of them.
    for (let i = 0; i < 3; i += 1) assert.equal(await whoAmI(shopper, `wrong-after-${i}`), 401);
  });
});
