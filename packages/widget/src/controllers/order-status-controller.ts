/** Follows an order's status: server-sent events first, polling with the status token when they fail. */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { getOrder, isAbort, orderEventsUrl } from '../api/client.ts';
import type { OrderStatus, OrderView } from '../api/types.ts';

const POLL_MS = 3000;
const RANK: Record<OrderStatus, number> = {
  pending: 0,
  awaiting_payment: 1,
  underpaid: 2,
  paid: 3,
  overpaid: 3,
  expired: 3,
  failed: 3,
};
export const isFinal = (status: OrderStatus): boolean => RANK[status] === 3;
/** Whether a value from a message is one of the order statuses. */
export const isStatus = (value: unknown): value is OrderStatus =>
  typeof RANK[value as OrderStatus] === 'number';

export class OrderStatusController implements ReactiveController {
  view?: OrderView;

  private target?: { api: string; id: string; token: string };
  private source?: EventSource;
  private timer?: ReturnType<typeof setTimeout>;
  private abort?: AbortController;

  constructor(
    private host: ReactiveControllerHost,
    private onStatus: (view: OrderView) => void,
    private pollMs = POLL_MS,
  ) {
    host.addController(this);
  }

  /** Starts following an order (and stops following any other). */
  follow(api: string, id: string, token: string): void {
    this.stop();
    this.view = undefined;
    this.target = { api, id, token };
    this.connect();
  }

  /** Asks the backend now, e.g. when the payment page says something changed. */
  refresh(): void {
    if (this.target) this.poll(false);
  }

  stop(): void {
    this.source?.close();
    this.source = undefined;
    clearTimeout(this.timer);
    this.abort?.abort();
  }

  hostConnected(): void {
    if (this.target && !(this.view?.final ?? false)) this.connect();
  }

  hostDisconnected(): void {
    this.stop();
  }

  private connect(): void {
    const t = this.target;
    if (!t) return;
    if (typeof EventSource === 'undefined') {
      this.poll(true);
      return;
    }
    const source = new EventSource(orderEventsUrl(t.api, t.id, t.token));
    this.source = source;
    source.addEventListener('status', (e) => {
      try {
        this.apply(JSON.parse((e as MessageEvent<string>).data) as OrderView);
      } catch {
        // A malformed event: the next one or the poll will tell.
      }
    });
    source.onerror = () => {
      // The stream ended (after a final status) or cannot be used here: fall back to polling.
      source.close();
      if (this.source === source && !this.view?.final) {
        this.source = undefined;
        this.poll(true);
      }
    };
  }

  private async poll(repeat: boolean): Promise<void> {
    const t = this.target;
    if (!t) return;
    clearTimeout(this.timer);
    const abort = new AbortController();
    this.abort = abort;
    let delay = this.pollMs;
    try {
      this.apply(await getOrder(t.api, t.id, t.token, abort.signal));
    } catch (e) {
      if (isAbort(e)) return;
      delay *= 2;
    }
    if ((repeat || !this.source) && !this.view?.final && this.target === t)
      this.timer = setTimeout(() => this.poll(true), delay);
  }

  private apply(view: OrderView): void {
    if (!this.target || view.orderId !== this.target.id) return;
    const final = view.final ?? isFinal(view.status);
    // A status never moves backwards; a repeat changes nothing.
    if (this.view && (view.status === this.view.status || RANK[view.status] < RANK[this.view.status])) return;
    this.view = { ...view, final };
    if (final) this.stop();
    this.onStatus(this.view);
    this.host.requestUpdate();
  }
}
