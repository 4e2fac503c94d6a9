/** The sandbox: one Hono app simulating the upstream ramp API, hosted ramp widget, payments API and pay pages. */
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { faultInjection } from './controls/faults.ts';
import { controls } from './controls/routes.ts';
import { landingPage } from './landing-page.ts';
import { payApi } from './payments/api.ts';
import { orderControls } from './payments/controls.ts';
import { payPage } from './payments/page/routes.ts';
import { rampApi } from './ramp/api.ts';
import { rampWidget } from './ramp/widget/routes.ts';
import { type SandboxOptions, SandboxState } from './state.ts';

export interface CreateSandboxOptions extends SandboxOptions {
  /** Where the app is mounted in its host (`/sandbox` under `npm start`, empty standalone). */
  mountPath?: string;
}

export function createSandbox(options: CreateSandboxOptions) {
  const state = new SandboxState(options);
  const app = new Hono()
    .use('*', requestId({ headerName: 'Request-Id' }))
    .use('*', faultInjection(state, options.mountPath ?? ''))
    .route('/ramp/api/v1/merchant', rampApi(state))
    .route('/ramp', rampWidget(state))
    .route('/pay-api/v1', payApi(state))
    .route('/pay', payPage(state))
    .route('/control/orders', orderControls(state))
    .route('/control', controls(state))
    .get('/', (c) => {
      // Where the demo widget links send the customer back after an order (see landing-page.ts).
      const orderId = c.req.query('orderId');
      const status = c.req.query('orderStatus');
      return c.html(landingPage(state, orderId && status ? { orderId, status } : undefined));
    });
  return { app, state };
}

export type SandboxApp = ReturnType<typeof createSandbox>['app'];
