/**
 * The merchant hears that an order was paid, reliably and once: a shopper pays in the browser, and the shop's own
 * receiver (here, a server of the test's, verifying with the Standard Webhooks library) gets `order.paid`: at
 * once; after being down for a while; and after the backend was killed with SIGKILL between the status change and
 * the delivery.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before } from 'node:test';
import { Webhook } from 'standardwebhooks';
import {
  type Browser,
  clickPay,
  closeLeftovers,
  type DemoServer,
  hookTimeout,
  launchBrowser,
  newContext,
  recordedEvents,
  startDemo,
  test,
  waitForEvent,
} from './harness.ts';
import { simulatePayment } from './pay-page.ts';

const secret = 'whsec_dGhlIHNob3AncyBvd24gcmVjZWl2ZXIgc2VjcmV0IQ==';
const adminToken = 'e2e-admin-token-long-enough';

interface Delivered {
  id: string;
  type: string;
  orderId: string | undefined;
  /** The customer's e-mail the event carries. */
  email: string | null | undefined;
}

/** The shop's receiver: verifies, records, answers 204, or 503 while it is "down". */
async function startReceiver() {
  const verifier = new Webhook(secret);
  const delivered: Delivered[] = [];
  let down = false;
  const read = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk));
      request.on('end', () => resolve(body));
    });
  const server = createServer(async (request, response) => {
    const body = await read(request);
    if (down) return void response.writeHead(503).end();
    const event = verifier.verify(body, request.headers as Record<string, string>) as {
      type: string;
      data: { orderId?: string; customer?: { email: string | null } };
    };
    delivered.push({
      id: String(request.headers['webhook-id']),
      type: event.type,
      orderId: event.data.orderId,
      email: event.data.customer?.email,
    });
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    delivered,
    setDown(value: boolean) {
      down = value;
    },
    paidFor: (orderId: string) => delivered.filter((d) => d.type === 'order.paid' && d.orderId === orderId),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Polls until `check` returns a value, or fails after `ms`. */
async function until<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  ms = 45_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let browser: Browser;
const dataDir = mkdtempSync(join(tmpdir(), 'crypto-checkout-fulfilment-'));
const env = () => ({
  MERCHANT_WEBHOOK_URL: receiver.url,
  MERCHANT_WEBHOOK_SECRET: secret,
  ADMIN_TOKEN: adminToken,
  DATA_DIR: dataDir,
});
let server: DemoServer;

before(
  async () => {
    receiver = await startReceiver();
    browser = await launchBrowser();
    server = await startDemo('fulfilment', env());
  },
  { timeout: hookTimeout },
);
afterEach(() => closeLeftovers('fulfilment'), { timeout: hookTimeout });
after(
  async () => {
    await server.stop();
    await browser.close();
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  },
  { timeout: hookTimeout },
);

/** A shopper pays for the first product on the product page, inline; returns our order id. */
async function shopperPays(): Promise<string> {
  const products = (await (await fetch(`${server.url}/api/products`)).json()) as {
    products: Array<{ id: string }>;
  };
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto(`${server.url}/products/${products.products[0]?.id}?display=inline`);
  await clickPay(page);
  const [order] = await waitForEvent(page, 'checkout-order');
  const orderId = String(order?.detail['orderId']);
  await simulatePayment(page.frameLocator('crypto-checkout iframe'), 'exact');
  await until('the paid status on screen', async () =>
    (await recordedEvents(page, 'checkout-status')).some((e) => e.detail['status'] === 'paid')
      ? true
      : undefined,
  );
  await context.close();
  return orderId;
}

const eventOf = async (orderId: string, type: string) => {
  const response = await fetch(`${server.url}/api/admin/events?orderId=${orderId}`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const { events } = (await response.json()) as {
    events: Array<{ id: string; type: string; deliveries: Array<{ state: string; attempts: number }> }>;
  };
  return events.find((event) => event.type === type);
};
const paidEvent = (orderId: string) => eventOf(orderId, 'order.paid');

test('a shopper pays and the shop receives order.paid once, signed', async () => {
  const orderId = await shopperPays();
  const [paid] = await until('order.paid at the receiver', () => {
    const found = receiver.paidFor(orderId);
    return found.length ? found : undefined;
  });
  const recorded = await paidEvent(orderId);
  assert.equal(recorded?.id, paid?.id, 'webhook-id is the event id the admin API shows');
  assert.equal(recorded?.deliveries[0]?.state, 'delivered');
  assert.equal(recorded?.deliveries[0]?.attempts, 1);
  assert.equal(receiver.paidFor(orderId).length, 1);
  // What the payer typed on the payment page (test/pay-page.ts) reaches the shop.
  assert.equal(paid?.email, 'ada@example.com');
});

/** Waits out an earlier event's backoff (5 s, doubling): an order's events are delivered in order. */
const BACKOFF_PATIENCE = 180_000;

test('a receiver that is down gets order.paid once it is back, after order.created', async () => {
  receiver.setDown(true);
  const orderId = await shopperPays();
  // order.created was tried and refused and waits for its next attempt; order.paid waits behind it.
  await until('a refused attempt', async () => {
    const created = await eventOf(orderId, 'order.created');
    const paid = await paidEvent(orderId);
    return created && created.deliveries[0]!.attempts >= 1 && paid?.deliveries[0]?.state === 'pending'
      ? paid
      : undefined;
  });
  assert.equal(receiver.paidFor(orderId).length, 0);
  receiver.setDown(false);
  await until(
    'order.paid after the receiver came back',
    () => (receiver.paidFor(orderId).length ? true : undefined),
    BACKOFF_PATIENCE,
  );
  assert.equal(receiver.paidFor(orderId).length, 1);
  const mine = receiver.delivered.filter((d) => d.orderId === orderId).map((d) => d.type);
  assert.deepEqual(mine, ['order.created', 'order.paid']);
});

test('the backend killed with SIGKILL after the payment and before the delivery still delivers it, once', async () => {
  receiver.setDown(true);
  const orderId = await shopperPays();
  const pending = await until('order.paid in the outbox', async () => {
    const event = await paidEvent(orderId);
    return event?.deliveries[0]?.state === 'pending' ? event : undefined;
  });
  await server.kill();
  receiver.setDown(false);
  server = await startDemo('fulfilment-restarted', env());
  await until(
    'order.paid after the restart',
    () => (receiver.paidFor(orderId).length ? true : undefined),
    BACKOFF_PATIENCE,
  );
  const delivered = receiver.paidFor(orderId);
  assert.equal(delivered.length, 1);
  assert.equal(delivered[0]?.id, pending.id, 'the same event id as before the crash');
});
