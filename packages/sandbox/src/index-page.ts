/** The sandbox's own landing page: what it simulates and where. */
import { html } from 'hono/html';
import type { SandboxState } from './state.ts';

export const indexPage = (state: SandboxState) => html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Upstream sandbox</title>
    <style>
      body { font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; }
      code { background: #f2f2f5; padding: 0 0.25em; border-radius: 4px; }
    </style>
  </head>
  <body>
    <h1>Upstream sandbox</h1>
    <p>An offline simulator of the crypto ramp and payments service. Nothing here moves real money.</p>
    <ul>
      <li>Ramp API: <code>${state.baseUrl}/ramp/api/v1/merchant/</code></li>
      <li>Hosted ramp widget: <a href="${state.baseUrl}/ramp/">buy</a>, <a href="${state.baseUrl}/ramp/sell">sell</a> (signed URLs only)</li>
      <li>Payments API: <code>${state.baseUrl}/pay-api/v1/</code></li>
      <li>Hosted payment pages: <code>${state.baseUrl}/pay/:orderId</code></li>
      <li>Controls: <code>${state.baseUrl}/control/</code> (reset, clock, faults, settings, deliveries)</li>
    </ul>
  </body>
</html>`;
