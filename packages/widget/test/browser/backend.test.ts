// The test infrastructure itself (web-test-runner.config.mjs + ../support.ts): the real backend on the
// sandbox is reachable on this page's origin, server-sent events stream through the proxy, tokens can be minted.
import { expect } from '@open-wc/testing';
import {
  api,
  backendInfo,
  checkoutToken,
  payOrder,
  resetSandbox,
  sandboxControl,
  waitUntil,
} from '../support.ts';

interface Product {
  id: string;
  name: string;
  price: string;
  currency: string;
}
interface OrderCreated {
  orderId: string;
  link: string;
  statusToken: string;
}

function newKey() {
  return `wtr-${crypto.randomUUID()}`;
}

describe('backend behind the test server', () => {
  beforeEach(resetSandbox);

  it('answers /healthz on the sandbox', async () => {
    const health = (await (await fetch('/healthz')).json()) as { ok: boolean; upstream: string };
    expect(health).to.deep.equal({ ok: true, upstream: 'sandbox', upstreamDrift: 0, quoteDrift: 0 });
  });

  it('serves the API and the sandbox controls on this origin', async () => {
    const { products } = await api<{ products: Product[] }>('products');
    expect(products.length).to.be.greaterThan(0);
    const settings = await sandboxControl<Record<string, unknown>>('settings', undefined, 'GET');
    expect(settings).to.be.an('object');
  });

  it('links its pages to this origin (PUBLIC_URL), and they load', async () => {
    const { products } = await api<{ products: Product[] }>('products');
    const order = await api<OrderCreated>('orders', {
      method: 'POST',
      headers: { 'Idempotency-Key': newKey() },
      body: JSON.stringify({ product: products[0]!.id }),
    });
    expect(new URL(order.link).origin).to.equal(location.origin);
    expect((await fetch(order.link)).status).to.equal(200);
    const info = await backendInfo();
    expect(info.origin).to.equal(location.origin);
  });

  it('streams order status events as they happen', async () => {
    const { products } = await api<{ products: Product[] }>('products');
    const order = await api<OrderCreated>('orders', {
      method: 'POST',
      headers: { 'Idempotency-Key': newKey() },
      body: JSON.stringify({ product: products[0]!.id }),
    });
    const source = new EventSource(
      `/api/orders/${order.orderId}/events?token=${encodeURIComponent(order.statusToken)}`,
    );
    try {
      const statuses: string[] = [];
      source.addEventListener('status', (event) => {
        statuses.push((JSON.parse((event as MessageEvent<string>).data) as { status: string }).status);
      });
      await waitUntil(() => statuses.length > 0, 'no status event at connect');
      // Arrives while the stream is open: proof that the proxy does not buffer it.
      await payOrder(order.orderId);
      await waitUntil(() => statuses.includes('paid'), 'no paid status on the stream');
    } finally {
      source.close();
    }
  });

  it('mints checkout tokens the backend accepts', async () => {
    const token = await checkoutToken({ name: 'Test hoodie', price: '12.50', currency: 'EUR' });
    const verified = await api<{ product: { name: string; price: string } }>('checkout-tokens/verify', {
      method: 'POST',
      body: JSON.stringify({ token }),
    });
    expect(verified.product.name).to.equal('Test hoodie');
    expect(verified.product.price).to.equal('12.50');
  });
});
