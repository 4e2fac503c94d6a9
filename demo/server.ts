/**
 * `npm start`: one process serving the demo storefront at `/`, the backend at `/api` (plus `/widget` and
 * `/healthz`) and, with no upstream keys configured, the sandbox of the upstream service at `/sandbox`.
 */
import type { AddressInfo } from 'node:net';
import { type Config, ConfigError, loadConfig } from '@crypto-checkout/backend';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createRuntime } from '../packages/backend/src/runtime.ts';
import { createDemoApp, refuseFramingFrom } from './app.ts';
import { buildDemo, demoBuildMissing } from './build.ts';

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

const runtime = await createRuntime(config);
let port = config.port;

const demo = createDemoApp({
  mode: config.mode,
  tokenSecret: config.checkoutTokenSecret,
  adminToken: config.adminToken,
  backendUrl: () => `http://127.0.0.1:${port}`,
});

const app = new Hono()
  .use('/sandbox/pay/*', refuseFramingFrom('/embed/blocked-frame'))
  .route('/', demo)
  .all('*', (c) => runtime.app.fetch(c.req.raw, c.env));

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
  void runtime.close().finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 3000).unref();
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
