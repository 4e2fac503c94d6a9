import type { AppDeps } from '../deps.ts';
import { createDeliveryWorker } from '../events/delivery-worker.ts';
import type { OnEvent } from '../events/fulfilment-events.ts';
import { createOrderFollower, type OrderFollower } from '../orders/follower.ts';
import { merchantKeyring } from './app-deps.ts';

/**
 * What runs beside the app: the delivery worker (started, watched by /readyz) and the quote engine's timers.
 * `createRuntime` and the Workers entry both start them.
 */
export function startBackground(
  deps: AppDeps,
  options: { onEvent?: OnEvent | undefined; fetch?: typeof fetch },
) {
  const { config } = deps;
  const worker = createDeliveryWorker({
    outbox: deps.outbox,
    clock: deps.clock,
    secrets: merchantKeyring(config),
    resolve: deps.endpoints.resolve,
    onEvent: options.onEvent,
    observe: deps.metrics.deliveryAttempt,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  worker.start();
  deps.quotes.start();
  deps.readiness.watchWorker(worker);
  return worker;
}

/**
 * The follower of unfinished orders (orders/follower.ts), started: the command and a mounted checkout run it (a
 * Worker does not: a Durable Object keeps no timers; docs/money.md says so).
 */
export function startFollower(deps: AppDeps): OrderFollower | undefined {
  if (!deps.ledger) return undefined;
  const follower = createOrderFollower(
    { store: deps.store, clock: deps.clock, ledger: deps.ledger, budget: deps.budget },
    { ...(deps.config.orderFollow ?? { everyMs: 30_000, share: 0.1 }), policy: deps.config.paymentPolicy },
  );
  follower.start();
  return follower;
}
