/** Signed POSTs to merchant endpoints (payments webhooks, ramp callbacks), retried with backoff on failure. */
import { randomUUID } from 'node:crypto';
import { hmacBase64 } from './keys.ts';
import type { SandboxState } from './state.ts';

export interface Delivery {
  id: string;
  kind: 'payments-webhook' | 'ramp-callback';
  merchantId: string;
  url: string;
  event: string;
  body: string;
  signatureHeader: string;
  attempts: Array<{ at: string; status: number | null; error?: string }>;
  state: 'pending' | 'delivered' | 'failed' | 'stopped';
}

interface DeliverOptions {
  kind: Delivery['kind'];
  merchantId: string;
  url: string;
  event: string;
  payload: unknown;
  secret: string;
  /** `x-swapped-signature` for payments webhooks, `signature` for ramp callbacks. */
  signatureHeader: string;
}

/**
 * Sends now and retries on a non-2xx answer or a network error, with the state's retry delays.
 * A 409 stops retries, as the real ramp service documents. Returns the delivery record at once.
 */
export function deliver(state: SandboxState, options: DeliverOptions): Delivery {
  const body = JSON.stringify(options.payload);
  const delivery: Delivery = {
    id: `dlv_${randomUUID()}`,
    kind: options.kind,
    merchantId: options.merchantId,
    url: options.url,
    event: options.event,
    body,
    signatureHeader: options.signatureHeader,
    attempts: [],
    state: 'pending',
  };
  state.deliveries.push(delivery);
  const signature = hmacBase64(options.secret, body);
  const delays = [...state.settings.retryDelaysMs];

  const attempt = async (): Promise<void> => {
    if (!state.deliveries.includes(delivery)) return; // dropped by a reset
    let status: number | null = null;
    let error: string | undefined;
    try {
      const response = await fetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [options.signatureHeader]: signature },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      status = response.status;
      await response.body?.cancel();
    } catch (cause) {
      error = cause instanceof Error ? cause.message : String(cause);
    }
    delivery.attempts.push({ at: new Date(state.now()).toISOString(), status, ...(error ? { error } : {}) });
    if (status !== null && status >= 200 && status < 300) {
      delivery.state = 'delivered';
    } else if (status === 409) {
      delivery.state = 'stopped';
    } else {
      const delay = delays.shift();
      if (delay === undefined) delivery.state = 'failed';
      else setTimeout(attempt, delay).unref?.();
    }
  };
  void attempt();
  return delivery;
}
