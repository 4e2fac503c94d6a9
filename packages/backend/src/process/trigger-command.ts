/**
 * `crypto-checkout-backend trigger <event type>`: makes a running sandbox backend produce a real fulfilment event,
 * through the real flow: an order created through the backend's own API as a shop's page would (a catalog
 * product, an Idempotency-Key), then the sandbox's order controls pay it (exactly, short, over), expire it or
 * cancel it, and the backend hears of it as it hears of any (a payment by the upstream's webhook, an expiry or a
 * cancel by reading the order as the shopper's page does). A deposit as a customer makes one: a customer token
 * minted with CHECKOUT_TOKEN_SECRET as the merchant's server would, the address asked of the backend's API, paid
 * into by the sandbox's deposit control. It waits until the event is in the outbox
 * (the admin API lists it) and names it. Refused against a live backend (upstream keys, no sandbox: a real order
 * would be real money), and for an event it cannot produce without faking it.
 */
import { randomUUID } from 'node:crypto';
import { type FulfilmentEventType, fulfilmentEventTypes } from '../events/fulfilment-events.ts';
import { createCustomerToken } from '../tokens.ts';
import { type BackendAccess, backendRefusal, unreachable } from './backend-access.ts';

/** What the sandbox's controls do to the order for each event (undefined: creating it is the event). */
const flows: Partial<Record<FulfilmentEventType, { control: string; body?: object; status: string }>> = {
  'order.paid': { control: 'pay', body: { kind: 'exact' }, status: 'paid' },
  'order.underpaid': { control: 'pay', body: { kind: 'underpaid' }, status: 'underpaid' },
  'order.overpaid': { control: 'pay', body: { kind: 'overpaid' }, status: 'overpaid' },
  'order.expired': { control: 'expire', status: 'expired' },
  'order.failed': { control: 'cancel', status: 'failed' },
};

/** Why an event type is not triggered: none is made up. */
const cannot: Partial<Record<FulfilmentEventType, string>> = {
  'ramp.completed':
    "a ramp order is made by a shopper in the ramp's hosted widget (a browser session the backend signs), and the sandbox has no control that makes one without it; open a ramp session's URL (POST /api/ramp-sessions) in a browser and complete the order there.",
  'ramp.cancelled':
    "a ramp order is made by a shopper in the ramp's hosted widget (a browser session the backend signs), and the sandbox has no control that makes one without it; open a ramp session's URL (POST /api/ramp-sessions) in a browser and cancel the order there.",
};

export interface TriggerOptions extends BackendAccess {
  type: string;
  out: (line: string) => void;
  refuse: (line: string) => void;
  /** How long to wait for the event to be written (default 30 s). */
  waitMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runTrigger(options: TriggerOptions): Promise<number> {
  const { out, refuse } = options;
  if (!(fulfilmentEventTypes as readonly string[]).includes(options.type)) {
    refuse(
      `"${options.type}" is not an event the backend sends; one of: ${fulfilmentEventTypes.join(', ')}.`,
    );
    return 2;
  }
  const type = options.type as FulfilmentEventType;
  const reason = cannot[type];
  if (reason) {
    refuse(`trigger cannot produce ${type} honestly: ${reason}`);
    return 1;
  }
  if (options.mode === 'live') {
    refuse(liveRefusal(options.url));
    return 1;
  }
  const admin = { authorization: `Bearer ${options.token}` };
  const call = async (path: string, init: RequestInit = {}) => {
    try {
      return await fetch(`${options.url}${path}`, init);
    } catch (error) {
      throw new Refusal(unreachable(options, error));
    }
  };
  try {
    // Asked of the backend itself: flags may name one whose configuration was not read here.
    const health = (await (await call('/healthz')).json().catch(() => ({}))) as { upstream?: string };
    if (health.upstream === 'live') throw new Refusal(liveRefusal(options.url));
    // The credential is checked before an order is made: a refused one would leave an order nobody follows.
    const check = await call('/api/admin/events?limit=1', { headers: admin });
    if (check.status !== 200) throw new Refusal(backendRefusal(options, check.status));
    await check.body?.cancel();
    if (type === 'deposit.received') {
      out(await receiveDeposit(options, call, admin));
      return 0;
    }

    const { products = [] } = (await (await call('/api/products')).json().catch(() => ({}))) as {
      products?: Array<{ id: string; name: string; price: string; currency: string }>;
    };
    const product = products[0];
    if (!product)
      throw new Refusal(
        `The backend at ${options.url} has no catalog product to order (PRODUCTS_FILE): trigger orders one, as a shop's page would.`,
      );
    const origin = new URL(options.url).origin;
    const created = await call('/api/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, 'idempotency-key': `trigger-${randomUUID()}` },
      body: JSON.stringify({
        product: product.id,
        customer: { name: 'Trigger Test', email: 'trigger@example.com', country: 'DE' },
      }),
    });
    const order = (await created.json().catch(() => ({}))) as {
      orderId?: string;
      link?: string;
      statusToken?: string;
      error?: { message?: string };
    };
    if (created.status !== 201 || !order.orderId || !order.link)
      throw new Refusal(
        `The backend refused to create an order (${created.status}${order.error?.message ? `: ${order.error.message}` : ''}).`,
      );
    out(`Created order ${order.orderId} (${product.name}, ${product.price} ${product.currency}).`);

    const flow = flows[type];
    if (flow) {
      // The sandbox's controls sit beside its payment page (`…/pay/<id>`): mounted at /sandbox, or its own server.
      const link = new URL(order.link);
      const at = link.pathname.lastIndexOf('/pay/');
      const upstreamId = link.pathname.slice(at + '/pay/'.length);
      const controls = `${link.origin}${link.pathname.slice(0, at)}/control/orders/${upstreamId}/${flow.control}`;
      const moved = await fetch(controls, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(flow.body ?? {}),
      }).catch((error: unknown) => {
        throw new Refusal(`Cannot reach the sandbox's controls at ${controls}: ${(error as Error).message}.`);
      });
      if (!moved.ok)
        throw new Refusal(
          `The sandbox refused to ${flow.control} order ${upstreamId} (${moved.status}): ${await moved.text()}`,
        );
      out(`The sandbox: ${flow.control} ${JSON.stringify(flow.body ?? {})} on ${upstreamId}.`);
    }

    // The event, once the backend has heard of the change and written it: a payment by the upstream's webhook;
    // an expiry or a cancel (which no webhook tells) by reading the order as the shopper's page does (or, without
    // it, the follower of unfinished orders, later).
    const deadline = Date.now() + (options.waitMs ?? 30_000);
    while (Date.now() < deadline) {
      await call(`/api/orders/${encodeURIComponent(order.orderId)}`, {
        headers: { 'x-status-token': order.statusToken ?? '' },
      }).then((answer) => answer.body?.cancel());
      const listed = await call(`/api/admin/events?orderId=${encodeURIComponent(order.orderId)}&limit=20`, {
        headers: admin,
      });
      const { events = [] } = (await listed.json().catch(() => ({}))) as {
        events?: Array<{ id: string; type: string }>;
      };
      const event = events.find((candidate) => candidate.type === type);
      if (event) {
        out(`Triggered ${type}: event ${event.id} for order ${order.orderId}.`);
        return 0;
      }
      await sleep(250);
    }
    throw new Refusal(
      `Order ${order.orderId} was moved, but no ${type} event was written within ${(options.waitMs ?? 30_000) / 1000} s: see the backend's log.`,
    );
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    refuse(error.message);
    return 1;
  }
}

type Call = (path: string, init?: RequestInit) => Promise<Response>;

/** deposit.received: a customer's deposit address asked of the backend, paid into by the sandbox. */
async function receiveDeposit(options: TriggerOptions, call: Call, admin: Record<string, string>) {
  const secret = options.checkoutTokenSecret;
  if (!secret)
    throw new Refusal(
      "deposit.received needs the backend's CHECKOUT_TOKEN_SECRET to mint a customer token as your server does: run trigger where the backend's .env or environment is read (not with both --url and --token).",
    );
  const customerId = `trigger-${randomUUID()}`;
  const customerToken = createCustomerToken(
    { customerId, email: 'trigger@example.com', name: 'Trigger Test' },
    secret,
  );
  const asked = await call('/api/deposit-addresses', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(options.url).origin },
    body: JSON.stringify({ customerToken, chain: 'base' }),
  });
  const deposit = (await asked.json().catch(() => ({}))) as {
    address?: string;
    memo?: string | null;
    error?: { message?: string };
  };
  if (asked.status !== 200 || !deposit.address)
    throw new Refusal(
      `The backend refused a deposit address (${asked.status}${deposit.error?.message ? `: ${deposit.error.message}` : ''})${asked.status === 401 ? ': its CHECKOUT_TOKEN_SECRET is not the one in the configuration read here (the same .env and environment)' : ''}.`,
    );
  options.out(`Deposit address ${deposit.address} (base) for customer ${customerId}.`);
  const controls = `${options.url}/sandbox/control/orders/route-deposits`;
  const paid = await fetch(controls, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      address: deposit.address,
      ...(deposit.memo ? { memo: deposit.memo } : {}),
      currency: 'USDC',
      amount: '10',
    }),
  }).catch((error: unknown) => {
    throw new Refusal(`Cannot reach the sandbox's controls at ${controls}: ${(error as Error).message}.`);
  });
  if (!paid.ok) throw new Refusal(`The sandbox refused the deposit (${paid.status}): ${await paid.text()}`);
  options.out(`The sandbox: 10 USDC paid into ${deposit.address}.`);

  // The event, once the upstream's webhook for the deposit has reached the backend and it has written it.
  const waitMs = options.waitMs ?? 30_000;
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    const listed = await call('/api/admin/events?limit=50', { headers: admin });
    const { events = [] } = (await listed.json().catch(() => ({}))) as {
      events?: Array<{ id: string; type: string; payload?: { data?: { customerId?: string } } }>;
    };
    const event = events.find(
      (candidate) =>
        candidate.type === 'deposit.received' && candidate.payload?.data?.customerId === customerId,
    );
    if (event) return `Triggered deposit.received: event ${event.id} for customer ${customerId}.`;
    await sleep(250);
  }
  throw new Refusal(
    `The sandbox paid into ${deposit.address}, but no deposit.received event was written within ${waitMs / 1000} s: see the backend's log.`,
  );
}

const liveRefusal = (url: string) =>
  `The backend at ${url} runs with upstream keys (live mode): trigger only drives the offline sandbox, and an order made there would be a real one. Run it against a backend started without keys.`;

/** A sentence for the developer, ending the command with 1. */
class Refusal extends Error {}
