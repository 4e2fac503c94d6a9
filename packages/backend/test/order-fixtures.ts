/** Helpers shared by the order, webhook, admin and deposit tests (not a test file itself). */
import { createHmac, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { allowedOrigin, type BackendClient, testSecrets } from './support.ts';

/** A catalog of our own, so these tests do not follow the demo catalog's changes. */
export const productsFile = fileURLToPath(new URL('./fixtures/products.json', import.meta.url));

export interface Created {
  orderId: string;
  link: string;
  status: string;
  expiresAt: string | null;
  statusToken: string;
  product: { name: string; price: string; currency: string };
}

export const newKey = () => `test-${randomUUID()}`;

export function postOrder(
  stack: BackendClient,
  body: unknown,
  key: string | null = newKey(),
  headers: HeadersInit = {},
) {
  return stack.api('/api/orders', {
    method: 'POST',
    headers: { origin: allowedOrigin, ...(key === null ? {} : { 'idempotency-key': key }), ...headers },
    json: body,
  });
}

export async function createOrder(
  stack: BackendClient,
  body: unknown = { product: 'hoodie' },
): Promise<Created> {
  const response = await postOrder(stack, body);
  if (response.status !== 201) throw new Error(`create → ${response.status} ${await response.text()}`);
  return (await response.json()) as Created;
}

/** The upstream order id is the last path segment of the payment link. */
export const upstreamIdOf = (created: Created) => new URL(created.link).pathname.split('/').pop() ?? '';

export async function getStatus(stack: BackendClient, created: Created) {
  const response = await stack.api(`/api/orders/${created.orderId}`, {
    headers: { 'x-status-token': created.statusToken },
  });
  return (await response.json()) as {
    status: string;
    upstreamStatus: string;
    final: boolean;
    paid?: unknown;
  };
}

/** The sandbox's own view of the merchant's orders, read with the sandbox payments key. */
export async function upstreamOrders(
  stack: BackendClient,
  query = '',
  apiKey: string = testSecrets.payApiKey,
) {
  const response = await fetch(`${stack.sandboxUrl}/pay-api/v1/merchants/orders?limit=100${query}`, {
    headers: { 'x-api-key': apiKey },
  });
  const body = (await response.json()) as {
    data: { orders: Array<Record<string, unknown>>; pagination: { totalItems: number } };
  };
  return body.data;
}

/**
 * Counts how many requests reach one upstream route while `work` runs: a sandbox fault rule that only adds
 * 1 ms of latency and counts down its `times` with every matching request.
 */
export async function countUpstreamCalls(
  stack: BackendClient,
  route: string,
  method: string,
  work: () => Promise<unknown>,
) {
  const budget = 1000;
  await stack.control('DELETE', '/faults');
  await stack.control('POST', '/faults', { route, method, latencyMs: 1, times: budget });
  await work();
  const faults = (await stack.control('GET', '/faults')) as {
    data: Array<{ route: string; times?: number }>;
  };
  await stack.control('DELETE', '/faults');
  const rule = faults.data.find((fault) => fault.route === route);
  return budget - (rule?.times ?? 0);
}

export const sign = (secret: string, body: string) =>
  createHmac('sha256', secret).update(body).digest('base64');

export function postWebhook(
  stack: BackendClient,
  path: 'payments' | 'ramp',
  payload: unknown,
  signature?: string,
) {
  const body = JSON.stringify(payload);
  const header = path === 'payments' ? 'x-swapped-signature' : 'signature';
  const secret = path === 'payments' ? testSecrets.payWebhookSecret : testSecrets.rampSecretKey;
  return stack.api(`/api/webhooks/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [header]: signature ?? sign(secret, body) },
    body,
  });
}

/** Points the sandbox merchant's payments webhooks somewhere that never answers, so only syncs can tell. */
export const silenceWebhooks = (stack: BackendClient) =>
  stack.control('PUT', '/merchants/test/webhook', { url: 'http://127.0.0.1:9/nowhere' });

export const restoreWebhooks = (stack: BackendClient) =>
  stack.control('PUT', '/merchants/test/webhook', { url: `${stack.backendUrl}/api/webhooks/payments` });

export async function waitFor<T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Reads `event: status` frames from an SSE response until the stream ends or `stop` says so. */
export async function readStatusEvents(
  response: Response,
  stop: (statuses: string[]) => boolean,
  timeoutMs = 8000,
) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const statuses: string[] = [];
  let buffer = '';
  const timer = setTimeout(() => void reader.cancel(), timeoutMs);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { statuses, ended: true };
      buffer += value;
      let cut = buffer.indexOf('\n\n');
      while (cut !== -1) {
        const frame = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (event === 'status' && data) statuses.push((JSON.parse(data) as { status: string }).status);
        cut = buffer.indexOf('\n\n');
      }
      if (stop(statuses)) return { statuses, ended: false };
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => undefined);
  }
}

/** The `status` events of an SSE response, one at a time (undefined once the stream ends). */
export function statusEvents(response: Response) {
  if (!response.body) throw new Error('no body');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    async next(): Promise<string | undefined> {
      for (;;) {
        const cut = buffer.indexOf('\n\n');
        if (cut !== -1) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (/^event: status$/m.test(frame) && data) return (JSON.parse(data) as { status: string }).status;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) return undefined;
        buffer += value;
      }
    },
    close: () => reader.cancel(),
  };
}
