/** Standalone sandbox: `npm run sandbox` (PORT, default 8788), so tests can run it as a process of its own. */
import { serve } from '@hono/node-server';
import { createSandbox } from './app.ts';

const port = Number(process.env.PORT ?? 8788);
const baseUrl = process.env.SANDBOX_BASE_URL ?? `http://localhost:${port}`;
const { app } = createSandbox({ baseUrl, defaultWebhookUrl: process.env.SANDBOX_WEBHOOK_URL });

serve({ fetch: app.fetch, port }, (info) => {
  console.log(`Sandbox of the upstream ramp and payments service on http://localhost:${info.port}`);
  console.log(`  ramp API     ${baseUrl}/ramp/api/v1/merchant/`);
  console.log(`  ramp widget  ${baseUrl}/ramp/  (sell: ${baseUrl}/ramp/sell)`);
  console.log(`  payments API ${baseUrl}/pay-api/v1/`);
  console.log(`  pay pages    ${baseUrl}/pay/:orderId`);
  console.log(`  controls     ${baseUrl}/control/`);
});
