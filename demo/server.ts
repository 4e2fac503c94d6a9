/**
 * `npm start`: one process serving the demo storefront at `/`, the backend at `/api` (plus `/widget` and
 * `/healthz`) and, with no upstream keys configured, the sandbox of the upstream service at `/sandbox`.
 */
import type { AddressInfo } from 'node:net';
import {
  type Config,
  ConfigError,
  createCheckout,
  loadConfig,
  storefrontCsp,
} from '@crypto-checkout/backend';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { createDemoApp, refuseFramingFrom } from './app.ts';
import { buildDemo, demoBuildMissing } from './build.ts';
import { createShipping } from './shipping.ts';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

if (demoBuildMissing()) {
  console.log('Building the demo pages…');
  await buildDemo();
}

let port = config.port;
// The shop hears about its orders like any merchant: signed events to its own receiver (the demo's /shop/events),
// unless the environment names another.
const shipping = createShipping();
if (!config.events.webhookUrls.length) {
  config = {
    ...config,
    events: { webhookUrls: [`http://127.0.0.1:${port}/shop/events`], webhookSecret: shipping.secret },
  };
}
const checkout = await createCheckout(config);

const demo = createDemoApp({
  mode: config.mode,
  tokenSecret: config.checkoutTokenSecret,
  // The credential the demo's Orders page acts with: a token of ADMIN_CREDENTIALS (a read one shows the page
  // read-only), else the older ADMIN_TOKEN (the sandbox has one of its own).
  adminToken: process.env['DEMO_ADMIN_TOKEN'] || config.adminToken || '',
  backendUrl: () => `http://127.0.0.1:${port}`,
  // The element's policy, plus the demo's own scripts, stylesheet, images, forms and calls on its origin.
  pageHeaders: storefrontCsp(config, {
    extra: {
      'script-src': ["'self'"],
      'style-src': ["'self'"],
      'img-src': ["'self'"],
      'connect-src': ["'self'"],
      'frame-src': ["'self'"],
      'form-action': ["'self'"],
    },
  }).headers,
});

const app = new Hono()
  .use('/sandbox/pay/*', refuseFramingFrom('/embed/blocked-frame'))
  .route('/shop', shipping.routes(config.events.webhookSecret ?? shipping.secret))
  .route('/', demo)
  // The shopper's address, for the checkout's per-client limits and audit log (behind a proxy, set TRUSTED_PROXIES).
  .all('*', (c) => checkout.fetch(c.req.raw, { clientAddress: getConnInfo(c).remote.address }));

const server = serve({ fetch: app.fetch, port: config.port }, (info: AddressInfo) => {
  port = info.port;
  const base = config.publicUrl.startsWith(`http://localhost:${config.port}`)
    ? `http://localhost:${info.port}`
    : config.publicUrl;
  const lines = [
    '',
    `crypto-checkout demo on ${base}`,
    `  demo storefront  ${base}/`,
    `  backend API      ${base}/api   (reference: ${base}/api/docs)`,
    `  widget bundle    ${base}/widget/crypto-checkout.js`,
  ];
  if (config.mode === 'sandbox') {
    lines.push(
      `  sandbox          ${base}/sandbox/`,
      '',
      'Running on the SANDBOX: no real money, no account needed.',
      'To go live, set the upstream keys in the environment (see packages/backend/.env.example and README.md).',
    );
  } else {
    lines.push('', 'Running LIVE against the upstream service configured in the environment: real money.');
  }
  console.log(lines.join('\n'));
});

let closing = false;
const shutdown = () => {
  if (closing) return;
  closing = true;
  server.close();
  void checkout.close().finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 3000).unref();
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
