#!/usr/bin/env node
/**
 * The bin `crypto-checkout-sandbox`: one sandbox of its own that several backend instances share (their
 * RAMP_API_URL, RAMP_WIDGET_URL and PAY_API_URL point at it), its state kept under --data-dir across restarts
 * (persistence.ts). Flags win over the environment (PORT, SANDBOX_BASE_URL, SANDBOX_DATA_DIR,
 * SANDBOX_WEBHOOK_URL).
 */
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import { createSandbox } from './app.ts';
import { keepOnDisk } from './persistence.ts';

const usage = `Usage: crypto-checkout-sandbox [--port 8788] [--base-url URL] [--data-dir DIR] [--webhook-url URL]

  --port         where it listens (PORT, default 8788)
  --base-url     the address clients reach it at, for payment links and the hosted widget
                 (SANDBOX_BASE_URL, default http://localhost:<port>)
  --data-dir     where its orders, payment routes and ramp orders are kept across restarts
                 (SANDBOX_DATA_DIR; without it, nothing is kept)
  --webhook-url  where payments webhooks go, e.g. your load balancer's /api/webhooks/payments
                 (SANDBOX_WEBHOOK_URL; each merchant's can be changed with PUT /control/merchants/{id}/webhook)
  -h, --help     this
`;

let values: Record<string, string | boolean | undefined>;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string' },
      'base-url': { type: 'string' },
      'data-dir': { type: 'string' },
      'webhook-url': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }));
} catch (error) {
  process.stderr.write(`${(error as Error).message.split('. ')[0]}.\n\n${usage}`);
  process.exit(2);
}
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}
const flag = (name: string) => values[name] as string | undefined;
const port = Number(flag('port') ?? process.env.PORT ?? 8788);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(
    `--port must be a port number, not "${flag('port') ?? process.env.PORT}".\n\n${usage}`,
  );
  process.exit(2);
}
const baseUrl = (flag('base-url') ?? process.env.SANDBOX_BASE_URL ?? `http://localhost:${port}`).replace(
  /\/$/,
  '',
);
const dataDir = flag('data-dir') ?? process.env.SANDBOX_DATA_DIR;
const { app, state } = createSandbox({
  baseUrl,
  defaultWebhookUrl: flag('webhook-url') ?? process.env.SANDBOX_WEBHOOK_URL,
});
const disk = dataDir ? keepOnDisk(state, dataDir) : undefined;

const server = serve(
  {
    // What a request changed is on disk before its answer leaves.
    fetch: async (request) => {
      const response = await app.fetch(request);
      disk?.flush();
      return response;
    },
    port,
  },
  (info) => {
    const line = (text: string) => process.stdout.write(`${text}\n`);
    line(`Sandbox of the upstream ramp and payments service listening on port ${info.port}`);
    line(`  ramp API     ${baseUrl}/ramp/api/v1/merchant/  (RAMP_API_URL=${baseUrl}/ramp)`);
    line(`  ramp widget  ${baseUrl}/ramp/  (RAMP_WIDGET_URL=${baseUrl}/ramp)`);
    line(`  payments API ${baseUrl}/pay-api/v1/  (PAY_API_URL=${baseUrl}/pay-api)`);
    line(`  controls     ${baseUrl}/control/`);
    line(
      disk ? `  state kept in ${disk.file}` : '  state in memory only (--data-dir keeps it across restarts)',
    );
  },
);

const stop = () => {
  disk?.flush();
  server.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
