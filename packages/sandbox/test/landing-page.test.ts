/** The landing page a newcomer opens at the sandbox's root, over real HTTP: its links work as it says. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Envelope, json, sandboxPerFile } from './support.ts';

const sandbox = sandboxPerFile();

/** Every href of the page, with the entities html`` escapes in attributes decoded back. */
async function linksOf(url: string): Promise<Map<string, string>> {
  const page = await (await fetch(url)).text();
  const links = new Map<string, string>();
  for (const match of page.matchAll(/<a (?:id="([^"]+)" )?href="([^"]+)">([^<]+)</g)) {
    links.set(match[1] ?? match[3]!, match[2]!.replaceAll('&amp;', '&'));
  }
  return links;
}

test('the landing page links to working API calls and controls', async () => {
  const response = await fetch(`${sandbox.baseUrl}/`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /text\/html/);
  const links = await linksOf(`${sandbox.baseUrl}/`);
  for (const name of [
    'get_supported',
    'get_payment_methods?country=DE',
    'settings',
    'clock',
    'deliveries',
    'pending',
  ]) {
    const url = links.get(name);
    assert.ok(url, `links to ${name}`);
    const answer = await json<Envelope<unknown>>(url);
    assert.equal(answer.status, 200, url);
    assert.equal(answer.body.success, true, url);
  }
});

test('the demo widget links are signed for pk_sandbox_demo and open the buy and sell widgets', async () => {
  const links = await linksOf(`${sandbox.baseUrl}/`);
  for (const id of ['demo-buy', 'demo-sell']) {
    const url = links.get(id);
    assert.ok(url, `links to ${id}`);
    assert.ok(url.includes('apiKey=pk_sandbox_demo&'), `${id} uses the demo key`);
    const page = await fetch(url);
    assert.equal(page.status, 200, `${id} opens`);
    assert.match(await page.text(), id === 'demo-buy' ? /Buy USD Coin/ : /Sell Bitcoin/);
    const tampered = await fetch(url.replace('apiKey=pk_sandbox_demo', 'apiKey=pk_sandbox_other'));
    assert.equal(tampered.status, 403, `${id} altered is refused`);
  }
});

test('an order through the demo buy link comes back to the landing page with its id and status', async () => {
  const url = (await linksOf(`${sandbox.baseUrl}/`)).get('demo-buy')!;
  const page = await (await fetch(url)).text();
  const config = JSON.parse(/<script type="application\/json" id="config">([^<]*)</.exec(page)![1]!);
  const post = <T>(path: string, body: unknown = {}) =>
    json<Envelope<T>>(`${sandbox.baseUrl}${config.prefix}${path}`, { body });
  const created = await post<{ order: { id: string } }>(`/sessions/${config.session}/orders`, {
    email: 'newcomer@example.com',
  });
  assert.equal(created.status, 200);
  const orderId = created.body.data.order.id;
  const done = await post<{ redirect: string }>(`/orders/${orderId}/complete`);
  assert.equal(done.body.data.redirect, `${sandbox.baseUrl}?orderId=${orderId}&orderStatus=order_completed`);
  const back = await (await fetch(done.body.data.redirect)).text();
  assert.match(back, new RegExp(`order <code>${orderId}</code> is\\s+<code>order_completed</code>`));
});
