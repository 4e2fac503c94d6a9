/**
 * The hosted ramp widget in a real browser (Debian's Chromium via playwright-core), embedded in an iframe on a
 * page of another origin: the steps, the SWAPPED_* messages the host receives, and the callbacks behind them.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';
import chromiumFlags from '../../../scripts/chromium-flags.json' with { type: 'json' };
import { json, type RunningSandbox, startReceiver, startSandbox } from './support.ts';

const executablePath = process.env['CHROME_PATH'] ?? '/usr/bin/chromium';

let sandbox: RunningSandbox;
let browser: Browser;
let host: Server;
let hostUrl: string;

before(async () => {
  sandbox = await startSandbox({ retryDelaysMs: [30, 30] });
  browser = await chromium.launch({
    executablePath,
    headless: true,
    args: chromiumFlags,
  });
  // The merchant's page: embeds the widget URL from ?src= and records every message from the iframe.
  host = createServer((req, res) => {
    const params = new URL(req.url ?? '/', 'http://host').searchParams;
    const src = params.get('src') ?? '';
    const policy = params.get('policy') === 'no-referrer' ? ' referrerpolicy="no-referrer"' : '';
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><title>Shop</title><script>
      window.messages = [];
      window.addEventListener('message', (e) => window.messages.push({ origin: e.origin, ...e.data }));
    </script><iframe id="ramp" title="Buy crypto" width="480" height="640"${policy} src="${src.replace(/"/g, '&quot;')}"></iframe>`);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;
});

after(async () => {
  await browser.close();
  await new Promise<void>((resolve) => host.close(() => resolve()));
  await sandbox.close();
});

function signedUrl(path: string, query: string, merchant: string): string {
  const signature = createHmac('sha256', `sk_sandbox_${merchant}`).update(`?${query}`).digest('base64');
  return `${sandbox.baseUrl}${path}?${query}&signature=${encodeURIComponent(signature)}`;
}

interface Message {
  origin: string;
  type: string;
  data?: Record<string, unknown>;
}

const messages = (page: Page) => page.evaluate(() => (window as unknown as { messages: Message[] }).messages);

async function waitForMessage(page: Page, type: string): Promise<Message> {
  await page.waitForFunction(
    (wanted) => (window as unknown as { messages: Message[] }).messages.some((m) => m.type === wanted),
    type,
    { timeout: 5000 },
  );
  return (await messages(page)).find((m) => m.type === type)!;
}

async function embed(url: string, policy = ''): Promise<{ page: Page; frame: Frame }> {
  const page = await browser.newPage();
  await page.goto(`${hostUrl}?policy=${policy}&src=${encodeURIComponent(url)}`);
  await waitForMessage(page, 'SWAPPED_READY');
  const frame = page.frame({ url: (u) => u.href.startsWith(sandbox.baseUrl) });
  assert.ok(frame, 'the widget frame loaded');
  return { page, frame };
}

test('buy in an iframe: steps, SWAPPED_* messages to the embedder, callbacks', async () => {
  const hook = await startReceiver();
  try {
    const query = `apiKey=pk_sandbox_browser&currencyCode=ETH&walletAddress=0xabc0000000000000000000000000000000000001&baseCurrencyCode=EUR&baseCurrencyAmount=100&responseUrl=${encodeURIComponent(hook.url)}`;
    const { page, frame } = await embed(signedUrl('/ramp/', query, 'browser'));
    const ready = await waitForMessage(page, 'SWAPPED_READY');
    assert.equal(ready.origin, sandbox.baseUrl);

    await frame.getByLabel('You pay').fill('150');
    await frame.waitForFunction(() => document.getElementById('total')?.textContent?.startsWith('15'));
    await frame.getByRole('button', { name: 'Continue' }).click();
    await frame.getByLabel('Email address').fill('buyer@example.com');
    await frame.getByRole('button', { name: 'Continue' }).click();

    const orderData = await waitForMessage(page, 'SWAPPED_ORDER_DATA');
    assert.equal(orderData.data?.['network'], 'ethereum');
    assert.equal(orderData.data?.['address'], '0xabc0000000000000000000000000000000000001');
    await frame.getByRole('button', { name: /^Pay .* \(simulated card\)$/ }).click();
    const success = await waitForMessage(page, 'SWAPPED_TRANSACTION_SUCCESSFUL');
    assert.equal(success.data?.['order_id'], orderData.data?.['order_id']);
    await frame.getByRole('button', { name: 'Close' }).click();
    await waitForMessage(page, 'SWAPPED_CLOSE');

    const steps = (await messages(page))
      .filter((m) => m.type === 'SWAPPED_NAVIGATION')
      .map((m) => m.data?.['step']);
    assert.deepEqual(steps, ['EMPTY', 'LOGIN_EMAIL', 'PAYMENT', 'ORDER_CONFIRMATION']);
    await hook.waitFor(3);
    const statuses = hook.received.map((r) => (JSON.parse(r.body) as { order_status: string }).order_status);
    assert.deepEqual(statuses, ['payment_pending', 'order_completed', 'order_broadcasted']);
    const first = JSON.parse(hook.received[0]!.body) as { order_amount_eur: number };
    assert.equal(first.order_amount_eur, 150, 'the amount typed in the widget is the one ordered');
    await page.close();
  } finally {
    await hook.close();
  }
});

test('with no known embedder origin, order data is not broadcast to "*"', async () => {
  const query =
    'apiKey=pk_sandbox_browser&currencyCode=BTC&walletAddress=bc1qxyz&baseCurrencyAmount=80&email=a%40example.com';
  // A host page that sends no referrer: the widget cannot learn who embeds it.
  const { page, frame } = await embed(signedUrl('/ramp/', query, 'browser'), 'no-referrer');
  await frame.getByRole('button', { name: 'Continue' }).click(); // email given: straight to payment
  await frame.getByRole('button', { name: /simulated card/ }).waitFor();
  // Messages arrive in order, and ORDER_DATA would be posted before the PAYMENT step's navigation.
  await page.waitForFunction(() =>
    (window as unknown as { messages: Message[] }).messages.some((m) => m.data?.['step'] === 'PAYMENT'),
  );
  const seen = (await messages(page)).map((m) => m.type);
  assert.ok(seen.includes('SWAPPED_NAVIGATION'), 'navigation still goes out');
  assert.ok(!seen.includes('SWAPPED_ORDER_DATA'), 'order data does not');
  await page.close();
  await json(`${sandbox.baseUrl}/control/reset`, { method: 'POST' });
});
