/** The series of orders, webhooks and fulfilment events: created, status changes, deliveries, the outbox's backlog, open status streams. */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { MetricSources, Metrics } from './types.ts';

export function orderSeries(
  registry: Registry,
  sources: MetricSources,
): Pick<
  Metrics,
  'orderCreated' | 'orderStatusChanged' | 'webhookReceived' | 'deliveryAttempt' | 'streamOpened'
> {
  const ordersCreated = new Counter({
    name: 'checkout_orders_created_total',
    help: 'Payment orders created (upstream order made and recorded).',
    registers: [registry],
  });
  const statusChanges = new Counter({
    name: 'checkout_order_status_changes_total',
    help: 'Order status changes recorded, by the new status and what told it (webhook, sync, …).',
    labelNames: ['status', 'source'],
    registers: [registry],
  });
  const webhooks = new Counter({
    name: 'checkout_webhooks_received_total',
    help: 'Webhooks received from the upstream, by source and outcome (verified, duplicate, refused: bad signature, invalid: unreadable).',
    labelNames: ['source', 'outcome'],
    registers: [registry],
  });
  const deliveries = new Counter({
    name: 'checkout_event_delivery_attempts_total',
    help: 'Fulfilment event delivery attempts, by target kind and outcome (delivered, retry: failed and will be tried again, failed: given up).',
    labelNames: ['target', 'outcome'],
    registers: [registry],
  });
  // Both backlog gauges are collected together (prom-client collects every metric at once): one read serves both.
  let backlog: Promise<{ pending: number; oldestAgeSeconds: number }> | undefined;
  const readBacklog = () => {
    if (!sources.outbox) return undefined;
    backlog ??= sources
      .outbox()
      .catch(() => ({ pending: Number.NaN, oldestAgeSeconds: Number.NaN }))
      .finally(() => {
        backlog = undefined;
      });
    return backlog;
  };
  new Gauge({
    name: 'checkout_event_deliveries_pending',
    help: 'Fulfilment event deliveries waiting in the outbox (shared by all instances; NaN while the store is away).',
    registers: [registry],
    async collect() {
      const read = await readBacklog();
      if (read) this.set(read.pending);
    },
  });
  new Gauge({
    name: 'checkout_event_delivery_oldest_pending_age_seconds',
    help: 'Age of the oldest event with a delivery still waiting (0 when none waits).',
    registers: [registry],
    async collect() {
      const read = await readBacklog();
      if (read) this.set(read.oldestAgeSeconds);
    },
  });
  const streams = new Gauge({
    name: 'checkout_order_status_streams_open',
    help: 'Order status streams (server-sent events) open on this instance.',
    registers: [registry],
  });

  return {
    orderCreated: () => ordersCreated.inc(),
    orderStatusChanged: (status, source) => statusChanges.labels(status, source).inc(),
    webhookReceived: (source, outcome) => webhooks.labels(source, outcome).inc(),
    deliveryAttempt: (target, outcome) => deliveries.labels(target, outcome).inc(),
    streamOpened() {
      streams.inc();
      let open = true;
      return () => {
        if (open) streams.dec();
        open = false;
      };
    },
  };
}
