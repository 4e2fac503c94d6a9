/**
 * `GET /api/admin/events/stream`: the fulfilment events as they are written, server-sent (what `crypto-checkout-backend
 * listen` forwards to a developer's receiver). Each message is `event: <type>`, `id: <event id>` and `data:` the
 * event's JSON exactly as a webhook receiver gets it as its body. `?last=N` first sends the N newest; `?events=`
 * keeps only those types; a reconnect's `Last-Event-ID` sends what came after that event. The outbox is looked at
 * every second (events/event-feed.ts), so events written by any instance arrive.
 */
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { createEventFeed } from '../../events/event-feed.ts';
import { type FulfilmentEvent, fulfilmentEventTypes } from '../../events/fulfilment-events.ts';
import { errorResponses, otherResponse } from '../../openapi.ts';
import { shutdownRetryMs } from '../../orders/status-stream.ts';
import { adminErrors, adminRoute, intParam } from './admin-route.ts';

/** How often the stream looks at the outbox. */
const pollMs = 1000;
const keepAliveMs = 15_000;

export const eventStreamQuery = z.object({
  last: intParam(0, 200, 0).describe('First send the N newest events (at most 200)'),
  events: z
    .string()
    .transform((list) => list.split(',').map((type) => type.trim()))
    .pipe(z.array(z.enum(fulfilmentEventTypes)).min(1))
    .optional()
    .describe('Only these event types, comma-separated (order.paid,order.expired)'),
});

export const eventStreamRoute = createRoute({
  ...adminRoute,
  method: 'get',
  path: '/events/stream',
  summary:
    'Server-sent fulfilment events as they are written (type, id, the body a webhook receiver gets); ?last=N sends the N newest first',
  request: { query: eventStreamQuery },
  responses: {
    200: otherResponse('text/event-stream', 'Event stream'),
    ...adminErrors(),
    ...errorResponses('SERVICE_UNAVAILABLE'),
  },
});

/** The stream, from `query` (the route's), until the client goes or this instance shuts down. */
export function streamEvents(
  c: Context,
  deps: Pick<AppDeps, 'store' | 'lifecycle'>,
  query: z.output<typeof eventStreamQuery>,
) {
  // A stream opened while this instance drains would outlive the streams its shutdown ends: the listener is
  // told to come back (to another instance, or to this one once restarted).
  if (deps.lifecycle.draining)
    throw new AppError('SERVICE_UNAVAILABLE', 'This instance is shutting down: reconnect in a moment.');
  const feed = createEventFeed(deps.store, { types: query.events });
  const after = c.req.header('last-event-id');
  c.header('Cache-Control', 'no-store');
  return streamSSE(c, async (stream) => {
    const send = async (events: readonly FulfilmentEvent[]) => {
      for (const event of events)
        await stream.writeSSE({ event: event.type, id: event.id, data: JSON.stringify(event) });
    };
    await new Promise<void>((resolve) => {
      let finished = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = () => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        clearInterval(keepAlive);
        forget();
        resolve();
      };
      // One look at a time: the next is set once this one has been sent. Until the first look has read the
      // outbox (the store may be away for a moment), each retry is a first look.
      let started = false;
      const look = () =>
        (started ? feed.next() : feed.start(query.last, after))
          .then(async (events) => {
            started = true;
            await send(events);
          })
          .catch(() => undefined)
          .then(() => {
            if (stream.closed) finish();
            else if (!finished) timer = setTimeout(look, pollMs);
          });
      const keepAlive = setInterval(() => void stream.write(': keep-alive\n\n').catch(finish), keepAliveMs);
      stream.onAbort(finish);
      // Shutting down: a retry hint, then the end; `listen` reconnects with the last id it had.
      const forget = deps.lifecycle.onEnd(() => {
        void stream
          .write(`retry: ${shutdownRetryMs}\n\n`)
          .catch(() => undefined)
          .finally(finish);
      });
      void stream.write(': connected\n\n').catch(finish);
      void look();
    });
  });
}
