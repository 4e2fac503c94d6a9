/**
 * Signed POSTs to merchant endpoints (payments webhooks, ramp callbacks), retried with backoff on failure, and
 * the log of every attempt that `GET /control/deliveries` shows. The state's own part: rooms send through
 * `state.deliveries.send()`, retries wait as the state's background work, and a reset drops the log.
 */
import { randomUUID } from 'node:crypto';
import type { Background } from './background.ts';
import { hmacBase64 } from './keys.ts';
import type { SandboxSettings } from './settings.ts';

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

export interface DeliverOptions {
  kind: Delivery['kind'];
  merchantId: string;
  url: string;
  event: string;
  payload: unknown;
  secret: string;
  /** `x-swapped-signature` for payments webhooks, `signature` for ramp callbacks. */
  signatureHeader: string;
}

/** What deliveries read of the sandbox's state (state.ts `SandboxState`). */
export interface DeliverySource {
  readonly settings: Pick<SandboxSettings, 'retryDelaysMs'>;
  readonly fetch: typeof fetch | undefined;
  now(): number;
  readonly background: Pick<Background, 'later'>;
}

export class Deliveries {
  #log: Delivery[] = [];

  constructor(private readonly state: DeliverySource) {}

  /**
   * Sends now and retries on a non-2xx answer or a network error, after each of the `retryDelaysMs` setting's
   * delays. A 409 stops retries, as the real ramp service documents. Returns the delivery record at once.
   */
  send(options: DeliverOptions): Delivery {
    const { state } = this;
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
    this.#log.push(delivery);
    const signature = hmacBase64(options.secret, body);
    const delays = [...state.settings.retryDelaysMs];

    const attempt = async (): Promise<void> => {
      let status: number | null = null;
      let error: string | undefined;
      try {
        const response = await (state.fetch ?? fetch)(options.url, {
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
      if (!this.#log.includes(delivery)) return; // dropped by a reset while the attempt was under way
      delivery.attempts.push({
        at: new Date(state.now()).toISOString(),
        status,
        ...(error ? { error } : {}),
      });
      if (status !== null && status >= 200 && status < 300) {
        delivery.state = 'delivered';
      } else if (status === 409) {
        delivery.state = 'stopped';
      } else {
        const delay = delays.shift();
        if (delay === undefined) delivery.state = 'failed';
        else
          state.background.later(delay, `retry ${delivery.event} to ${delivery.url}`, () => void attempt());
      }
    };
    void attempt();
    return delivery;
  }

  /** Every delivery so far, oldest first, optionally only one merchant's or one kind's. */
  list(filter: { merchantId?: string | undefined; kind?: string | undefined } = {}): Delivery[] {
    return this.#log.filter(
      (d) =>
        (!filter.merchantId || d.merchantId === filter.merchantId) &&
        (!filter.kind || d.kind === filter.kind),
    );
  }

  clear(): void {
    this.#log = [];
  }
}
