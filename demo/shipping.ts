/**
 * The demo shop's own back office: the receiver of the checkout's fulfilment events, written as a merchant would
 * write theirs. It verifies each event with the Standard Webhooks library, applies it once (by `webhook-id`), and
 * marks a paid order shipped. `GET /shop/shipments` is what the Orders page shows.
 */
import { Hono } from 'hono';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

/** The demo's secret, used only when the environment names no receiver of its own (sandbox runs). */
const demoSecret = 'whsec_M1VuFmvIJpKnnvEhqiPpvikevsNlH+EKGhhkufYLlGE=';

interface Shipment {
  orderId: string;
  product: string;
  shippedAt: string;
  eventId: string;
}

interface ReceivedEvent {
  id: string;
  type: string;
  orderId: string | null;
  receivedAt: string;
}

export function createShipping() {
  const shipments = new Map<string, Shipment>();
  const received = new Map<string, ReceivedEvent>();

  return {
    secret: demoSecret,
    routes(secret: string) {
      const webhook = new Webhook(secret);
      return new Hono()
        .post('/events', async (c) => {
          const body = await c.req.text();
          let event: { id: string; type: string; data: { orderId?: string; product?: { name: string } } };
          try {
            event = webhook.verify(body, Object.fromEntries(c.req.raw.headers)) as typeof event;
          } catch (error) {
            if (error instanceof WebhookVerificationError) return c.text('bad signature', 401);
            throw error;
          }
          const id = c.req.header('webhook-id') ?? event.id;
          // At-least-once delivery: a retry of an event already applied is acknowledged and ignored.
          if (received.has(id)) return c.body(null, 204);
          const orderId = event.data.orderId ?? null;
          received.set(id, { id, type: event.type, orderId, receivedAt: new Date().toISOString() });
          if ((event.type === 'order.paid' || event.type === 'order.overpaid') && orderId) {
            shipments.set(orderId, {
              orderId,
              product: event.data.product?.name ?? '',
              shippedAt: new Date().toISOString(),
              eventId: id,
            });
          }
          return c.body(null, 204);
        })
        .get('/shipments', (c) =>
          c.json({ shipments: [...shipments.values()], events: [...received.values()] }),
        );
    },
  };
}
