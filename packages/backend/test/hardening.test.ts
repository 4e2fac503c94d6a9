import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { createApp } from '../src/app.ts';
import { allowedOrigin, json, type Stack, startStack } from './support.ts';

const sampleCatalog = fileURLToPath(new URL('../data/products.json', import.meta.url));

describe('hardening', () => {
  let stack: Stack;
  before(async () => {
    // The sample catalog (its images are local files), which live mode refuses from PRODUCTS_FILE: given in code.
    stack = await startStack({ config: { productsFile: sampleCatalog } });
  });
  after(() => stack.close());

  test('every public answer varies by Origin for caches, with or without an Origin header', async () => {
    const varies = (response: Response) =>
      (response.headers.get('vary') ?? '').split(',').map((part) => part.trim().toLowerCase());
    const sameOrigin = await stack.api('/api/catalog');
    assert.equal(sameOrigin.headers.get('access-control-allow-origin'), null);
    assert.ok(varies(sameOrigin).includes('origin'), String(sameOrigin.headers.get('vary')));
    assert.ok(varies(sameOrigin).includes('accept-language'), 'the header-derived country still varies');
    const crossOrigin = await stack.api('/api/catalog?country=DE', { headers: { origin: allowedOrigin } });
    assert.ok(varies(crossOrigin).includes('origin'));
    assert.equal(await crossOrigin.text(), await (await stack.api('/api/catalog?country=DE')).text());
  });

  test('a page can read our errors too: CORS headers on an error answer to an allowed origin', async () => {
    const refused = await stack.api('/api/quotes/buy', {
      method: 'POST',
      headers: { origin: allowedOrigin },
      json: { paymentMethod: 'creditcard', country: 'DE', fiat: 'EUR', crypto: 'BTC' },
    });
    assert.equal(refused.status, 422);
    assert.equal(refused.headers.get('access-control-allow-origin'), allowedOrigin);
    assert.match(refused.headers.get('access-control-expose-headers') ?? '', /X-Request-Id/);
    assert.match(refused.headers.get('vary') ?? '', /Origin/);
    assert.equal((await json<{ error: { code: string } }>(refused)).error.code, 'VALIDATION_FAILED');
  });

  test('CORS only for allowed origins, and never on webhooks or admin', async () => {
    const allowed = await stack.api('/api/catalog?country=DE', { headers: { origin: allowedOrigin } });
    assert.equal(allowed.headers.get('access-control-allow-origin'), allowedOrigin);
    const preflight = await stack.api('/api/quotes/buy', {
      method: 'OPTIONS',
      headers: {
        origin: allowedOrigin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    assert.equal(preflight.headers.get('access-control-allow-origin'), allowedOrigin);
    const foreign = await stack.api('/api/catalog?country=DE', {
      headers: { origin: 'https://evil.example' },
    });
    assert.equal(foreign.status, 403);
    // The refusal alone is readable by the page it refuses (the element then names ALLOWED_ORIGINS), never the
    // answer: no credentials, no exposed headers, and a foreign preflight still gets nothing.
    assert.equal(foreign.headers.get('access-control-allow-origin'), 'https://evil.example');
    assert.equal(foreign.headers.get('access-control-allow-credentials'), null);
    assert.match(foreign.headers.get('vary') ?? '', /Origin/);
    assert.equal((await json<{ error: { code: string } }>(foreign)).error.code, 'FORBIDDEN');
    // A foreign preflight is answered only so that its request meets the refusal: the POST is refused before any
    // route runs (no order), and only that refusal is readable.
    const foreignPreflight = await stack.api('/api/orders', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(foreignPreflight.headers.get('access-control-allow-origin'), 'https://evil.example');
    assert.equal(foreignPreflight.headers.get('access-control-allow-credentials'), null);
    assert.equal(foreignPreflight.headers.get('access-control-expose-headers'), null);
    const foreignPost = await stack.api('/api/orders', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ productId: 'ember-mug' }),
    });
    assert.equal(foreignPost.status, 403);
    assert.equal(foreignPost.headers.get('access-control-allow-origin'), 'https://evil.example');
    assert.equal((await json<{ error: { code: string } }>(foreignPost)).error.code, 'FORBIDDEN');
    const webhook = await stack.api('/api/webhooks/payments', {
      method: 'OPTIONS',
      headers: { origin: allowedOrigin, 'access-control-request-method': 'POST' },
    });
    assert.equal(webhook.headers.get('access-control-allow-origin'), null);
    const admin = await stack.api('/api/admin/orders', { headers: { origin: allowedOrigin } });
    assert.equal(admin.headers.get('access-control-allow-origin'), null);
  });

  test('mounted under a prefix in a Hono app, the same guards apply by route, not by absolute path', async () => {
    const shop = new Hono().route('/checkout', createApp(stack.deps));
    const call = (path: string, init: RequestInit = {}) => shop.request(`/checkout${path}`, init);
    const allowed = await call('/api/catalog?country=DE', { headers: { origin: allowedOrigin } });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers.get('access-control-allow-origin'), allowedOrigin);
    const foreign = await call('/api/catalog?country=DE', { headers: { origin: 'https://evil.example' } });
    assert.equal(foreign.status, 403);
    // Server-only routes keep no CORS and no per-client limit under the prefix too.
    const webhook = await call('/api/webhooks/payments', {
      method: 'OPTIONS',
      headers: { origin: allowedOrigin, 'access-control-request-method': 'POST' },
    });
    assert.equal(webhook.headers.get('access-control-allow-origin'), null);
    const tooBig = await call('/api/quotes/buy', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(20_000) }),
    });
    assert.equal(tooBig.status, 413);
  });

  test('request ids are echoed and carried by errors; security headers are set', async () => {
    const response = await stack.api('/api/products/nope', { headers: { 'x-request-id': 'test-req-123' } });
    assert.equal(response.status, 404);
    assert.equal(response.headers.get('x-request-id'), 'test-req-123');
    assert.equal((await json<{ error: { requestId: string } }>(response)).error.requestId, 'test-req-123');
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.equal(
      response.headers.get('content-security-policy'),
      "default-src 'none'; frame-ancestors 'none'",
    );
  });

  test('a page that sets its own Content-Security-Policy keeps it beside the other security headers', async () => {
    const docs = await stack.api('/api/docs');
    assert.equal(docs.status, 200);
    assert.match(docs.headers.get('content-security-policy') ?? '', /style-src/);
    assert.equal(docs.headers.get('x-frame-options'), 'DENY');
    assert.equal(docs.headers.get('x-content-type-options'), 'nosniff');
  });

  test('a body over the limit is 413 in the envelope', async () => {
    const response = await stack.api('/api/quotes/buy', {
      method: 'POST',
      json: { paymentMethod: 'creditcard', padding: 'x'.repeat(20_000) },
    });
    assert.equal(response.status, 413);
    assert.equal((await json<{ error: { code: string } }>(response)).error.code, 'PAYLOAD_TOO_LARGE');
  });

  test('a client over its rate limit gets 429 RATE_LIMITED with Retry-After', async () => {
    const limited = await startStack({ env: { RATE_LIMIT_PER_MINUTE: '5' } });
    try {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 7; i += 1) {
        last = await limited.api('/api/products');
        statuses.push(last.status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
      assert.ok(Number(last?.headers.get('retry-after')) >= 1);
      assert.equal((await json<{ error: { code: string } }>(last as Response)).error.code, 'RATE_LIMITED');
      // The catalog is served from memory and not limited per IP: a shopper who was refused quotes still sees it.
      const catalog = await limited.api('/api/catalog?country=DE');
      assert.equal(catalog.status, 200);
      // Webhooks are not limited per IP.
      const webhook = await limited.api('/api/webhooks/payments', { method: 'POST', json: {} });
      assert.notEqual(webhook.status, 429);
    } finally {
      await limited.close();
    }
  });

  test('no secret in any response body or header', async () => {
    const secrets = [
      stack.config.ramp.secretKey,
      stack.config.payments.apiKey,
      stack.config.payments.webhookSecret,
    ];
    const calls: Array<[string, RequestInit & { json?: unknown }]> = [
      ['/api/catalog?country=DE', {}],
      ['/api/products', {}],
      ['/api/openapi.json', {}],
      ['/api/docs', {}],
      ['/healthz', {}],
      [
        '/api/quotes/buy',
        {
          method: 'POST',
          json: { paymentMethod: 'creditcard', country: 'DE', fiat: 'EUR', crypto: 'ETH', fiatAmount: '40' },
        },
      ],
      [
        '/api/quotes/sell',
        {
          method: 'POST',
          json: {
            payoutMethod: 'bank-transfer',
            country: 'DE',
            fiat: 'EUR',
            crypto: 'ETH',
            cryptoAmount: '0.02',
          },
        },
      ],
      [
        '/api/ramp-sessions',
        {
          method: 'POST',
          json: {
            side: 'buy',
            fiat: 'EUR',
            crypto: 'ETH',
            walletAddress: '0x000000000000000000000000000000000000dEaD',
          },
        },
      ],
      ['/api/quotes/buy', { method: 'POST', json: { nonsense: true } }],
    ];
    await stack.control('POST', '/faults', { route: '/ramp/api/v1/merchant/sell/pricing', status: 500 });
    calls.push([
      '/api/quotes/sell',
      {
        method: 'POST',
        json: { payoutMethod: 'bank-transfer', country: 'DE', fiat: 'EUR', crypto: 'ETH', fiatAmount: '55' },
      },
    ]);
    try {
      for (const [path, init] of calls) {
        const response = await stack.api(path, init);
        const text = `${[...response.headers.entries()].join('\n')}\n${await response.text()}`;
        for (const secret of secrets) assert.ok(!text.includes(secret), `${path} leaks a secret`);
        assert.doesNotMatch(text, /sk_sandbox|pay_sandbox|whsec_/, path);
      }
    } finally {
      await stack.control('DELETE', '/faults');
    }
  });

  test('openapi.json lists every route of the app', async () => {
    const document = await json<{
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    }>(await stack.api('/api/openapi.json'));
    assert.equal(document.openapi, '3.1.0');
    const app = createApp(stack.deps);
    const routes = app.routes
      .filter((route) => route.method !== 'ALL' && !route.path.endsWith('*'))
      .map(
        (route) =>
          `${route.method.toLowerCase()} ${route.path.replace(/:([A-Za-z]+)/g, '{$1}').replace(/\/$/, '') || '/'}`,
      );
    assert.ok(routes.length > 15);
    // The console's own routes (its page, its bundle, its session) are not the API: API.md describes them.
    const apiMd = await readFile(new URL('../API.md', import.meta.url), 'utf8');
    for (const route of new Set(routes)) {
      const [method, path] = route.split(' ') as [string, string];
      if (path === '/console' || path.startsWith('/console/')) {
        assert.ok(apiMd.includes(`${method.toUpperCase()} ${path}`), `${route} is described in API.md`);
        continue;
      }
      assert.ok(document.paths[path]?.[method], `${route} is documented`);
    }
    const quote = document.paths['/api/quotes/buy']?.['post'] as {
      requestBody: { content: Record<string, { schema: { $ref: string } }> };
    };
    const body = quote.requestBody.content['application/json']?.schema.$ref.replace(
      '#/components/schemas/',
      '',
    );
    assert.ok(document.components.schemas[body ?? '']?.properties['fiatAmount'], 'built from the zod schema');
    const docs = await stack.api('/api/docs');
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /\/api\/quotes\/buy/);
  });

  test('product images are served locally; the widget bundle answers 200 or a 404 envelope', async () => {
    const { products } = await json<{ products: Array<{ image: string }> }>(await stack.api('/api/products'));
    assert.equal(products.length, 6);
    for (const product of products)
      assert.ok(product.image.startsWith(`${stack.backendUrl}/api/products/images/`));
    const image = await fetch(products[0]?.image ?? '');
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/svg+xml');
    const traversal = await stack.api('/api/products/images/..%2Fproducts.json');
    assert.notEqual(traversal.status, 200);
    const bundle = await stack.api('/widget/crypto-checkout.js', { headers: { 'accept-encoding': 'gzip' } });
    if (bundle.status === 200) {
      assert.ok(bundle.headers.get('etag'));
      assert.match(bundle.headers.get('cache-control') ?? '', /max-age=/);
      const again = await stack.api('/widget/crypto-checkout.js', {
        headers: { 'if-none-match': bundle.headers.get('etag') ?? '' },
      });
      assert.equal(again.status, 304);
    } else {
      assert.equal(bundle.status, 404);
      assert.equal((await json<{ error: { code: string } }>(bundle)).error.code, 'NOT_FOUND');
    }
  });
});
