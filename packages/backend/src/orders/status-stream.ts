/**
 * `GET /api/orders/{id}/events`: server-sent `status` events with the order's view, from its state now until a
 * final status. Changes come from the ledger's hub (a webhook, a sync, another instance through Redis); while
 * the stream is open the upstream's list is looked at too, as webhooks may never come.
 */
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Lifecycle } from '../lifecycle.ts';
import type { OrderLedger } from './ledger.ts';
import type { OrderRecord } from './order.ts';
import { orderView } from './order-view.ts';
import { isFinal } from './status.ts';

/** How often an open stream asks the ledger to look at the upstream list (the ledger limits it further). */
const pollMs = 2000;
const keepAliveMs = 15_000;
/** The reconnection delay a stream ended by a shutdown asks the browser for (the SSE `retry:` field). */
export const shutdownRetryMs = 1000;

export function statusStream(
  c: Context,
  ledger: Pick<OrderLedger, 'subscribe' | 'sync' | 'fresh'>,
  record: OrderRecord,
  /** Told when the stream opens; what it returns, when it ends (the metrics' open-streams gauge). */
  opened: () => () => void = () => () => undefined,
  lifecycle?: Pick<Lifecycle, 'onEnd'>,
) {
  c.header('Cache-Control', 'no-store');
  return streamSSE(c, async (stream) => {
    let last = '';
    let lastAt = '';
    let sequence = 0;
    const send = async (current: OrderRecord) => {
      const data = JSON.stringify(orderView(current));
      // The first read and a published change may race: never send an older state after a newer one.
      if (data === last || current.updatedAt < lastAt || stream.closed) return;
      last = data;
      lastAt = current.updatedAt;
      await stream.writeSSE({ event: 'status', data, id: String(++sequence) });
    };
    const closed = opened();
    await new Promise<void>((resolve) => {
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        closed();
        unsubscribe();
        forget?.();
        clearInterval(poll);
        clearInterval(keepAlive);
        resolve();
      };
      const sendThenMaybeFinish = (current: OrderRecord) =>
        send(current)
          .then(() => {
            if (isFinal(current.status)) finish();
          })
          .catch(finish);
      // Listen before the first read: the ledger tells each change once, so a webhook landing between
      // that read and a later subscription would never reach this stream.
      const unsubscribe = ledger.subscribe(record.id, (changed) => void sendThenMaybeFinish(changed));
      // Webhooks may never come (misconfigured URL, firewall): look at the upstream list meanwhile.
      const poll = setInterval(() => void ledger.sync(record.id), pollMs);
      const keepAlive = setInterval(() => void stream.write(': keep-alive\n\n').catch(finish), keepAliveMs);
      stream.onAbort(finish);
      // This instance is shutting down: a retry hint, then the end; the EventSource reconnects (to another
      // instance behind the load balancer) and its new stream starts with the order's state then.
      const forget = lifecycle?.onEnd(() => {
        void stream
          .write(`retry: ${shutdownRetryMs}\n\n`)
          .catch(() => undefined)
          .finally(finish);
      });
      void ledger.fresh(record.id).then((latest) => sendThenMaybeFinish(latest ?? record), finish);
    });
  });
}
