/**
 * The demo storefront (`npm start`: demo/server.ts) mounts the checkout as a fetch handler and hands it each
 * shopper's address: one client's wrong admin tokens and its flood leave another client alone, and the audit log
 * names the client. Shoppers come from distinct loopback addresses (Linux answers on all of 127.0.0.0/8).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { requestFrom } from '../packages/backend/test/servers.ts';
import { type DemoServer, startDemo } from './harness.ts';

const adminToken = 'demo-clients-admin-token-0123456789';
const shopper = '127.0.0.2';
const other = '127.0.0.3';
const bearer = { authorization: `Bearer ${adminToken}` };

describe('the demo mount tells shoppers apart', () => {
  let demo: DemoServer;
  let base = '';
  before(async () => {
    demo = await startDemo('demo-clients', { ADMIN_TOKEN: adminToken });
    const url = new URL(demo.url);
    url.hostname = '127.0.0.1';
    base = url.origin;
  });
  after(() => demo?.stop());

  /** A request from `from` (a connection of its own, so from that source address). */
  const send = (
    from: string,
    path: string,
    init: { method?: string; headers?: Record<string, string> } = {},
  ) => requestFrom(from, `${base}${path}`, init);
  const whoAmI = (from: string, token: string) =>
    send(from, '/api/admin/credential', { headers: { authorization: `Bearer ${token}` } }).then(
      (a) => a.status,
    );

  test("one client's 10 wrong tokens: that client is slowed; another's tokens, and a right one, are not", async () => {
    for (let i = 0; i < 10; i += 1) assert.equal(await whoAmI(shopper, `wrong-${i}`), 401, `guess ${i + 1}`);
    assert.equal(await whoAmI(shopper, 'wrong-11'), 429, demo.output().slice(-2000));
    assert.equal(await whoAmI(other, 'wrong-elsewhere'), 401);
    assert.equal(await whoAmI(other, adminToken), 200);
    assert.equal(await whoAmI(shopper, adminToken), 200);
  });

  test("one client's 125 requests: it is limited past 120, another client is not", async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 125; n += 1) statuses.push((await send(shopper, '/api/products')).status);
    assert.ok(statuses.indexOf(429) >= 120, `refused from request ${statuses.indexOf(429) + 1}`);
    assert.equal((await send(other, '/api/products')).status, 200);
  });

  test('the audit log names the client that wrote', async () => {
    const lift = await send(other, `/api/admin/lockouts/${shopper}`, { method: 'DELETE', headers: bearer });
    assert.equal(lift.status, 200, lift.body);
    assert.equal(await whoAmI(shopper, 'wrong-after'), 401);
    const audit = await send(other, '/api/admin/audit?limit=1', { headers: bearer });
    const [entry] = (JSON.parse(audit.body) as { entries: Array<{ action: string; clientIp: string }> })
      .entries;
    assert.deepEqual(entry && { action: entry.action, clientIp: entry.clientIp }, {
      action: `DELETE /api/admin/lockouts/${shopper}`,
      clientIp: other,
    });
  });
});
