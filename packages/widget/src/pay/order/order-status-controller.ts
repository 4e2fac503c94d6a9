/** Follows an order's status: server-sent events first, polling with the status token when they fail. */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { getOrder, isAbort, orderEventsUrl } from '../../api/client.ts';
import type { OrderStatus, OrderView } from '../../api/types.ts';

const POLL_MS = 3000;
const RANK: Record<OrderStatus, number> = {
  pending: 0,
  awaiting_payment: 1,
  underpaid: 2,
  paid_late: 2,
  paid: 3,
  overpaid: 3,
  expired: 3,
  failed: 3,
  cancelled: 3,
};
export const isFinal = (status: OrderStatus): boolean => RANK[status] === 3;
/** Whether a value from a message is one of the order statuses. */
export const isStatus = (value: unknown): value is OrderStatus =>
  typeof RANK[value as OrderStatus] === 'number';

export class OrderStatusController implements ReactiveController {
  view?: OrderView;

  private _target?: { api: string; id: string; token: string };
  private _source?: EventSource;
  private _timer?: ReturnType<typeof setTimeout>;
  private _abort?: AbortController;

  constructor(
    private _host: ReactiveControllerHost,
    private _onStatus: (view: OrderView) => void,
    private _pollMs = POLL_MS,
  ) {
    _host.addController(this);
  }

  /** Starts following an order (and stops following any other). */
  follow(api: string, id: string, token: string): void {
    this.stop();
    this.view = undefined;
    this._target = { api, id, token };
    this._connect();
  }

  /** Asks the backend now, e.g. when the payment page says something changed. */
  refresh(): void {
    if (this._target) this._poll(false);
  }

  stop(): void {
    this._source?.close();
    this._source = undefined;
    clearTimeout(this._timer);
    this._abort?.abort();
  }

  hostConnected(): void {
    if (this._target && !this.view?.final) this._connect();
  }

  hostDisconnected(): void {
    this.stop();
  }

  private _connect(): void {
    const t = this._target;
    if (!t) return;
    if (typeof EventSource === 'undefined') {
      this._poll(true);
      return;
    }
    const source = new EventSource(orderEventsUrl(t.api, t.id, t.token));
    this._source = source;
    source.addEventListener('status', (e) => {
      try {
        this._apply(JSON.parse((e as MessageEvent<string>).data) as OrderView);
      } catch {
        // A malformed event: the next one or the poll will tell.
      }
    });
    source.onerror = () => {
      // The stream ended (after a final status) or cannot be used here: fall back to polling.
      source.close();
      if (this._source === source && !this.view?.final) {
        this._source = undefined;
        this._poll(true);
      }
    };
  }

  private async _poll(repeat: boolean): Promise<void> {
    const t = this._target;
    if (!t) return;
    clearTimeout(this._timer);
    const abort = new AbortController();
    this._abort = abort;
    let delay = this._pollMs;
    try {
      this._apply(await getOrder(t.api, t.id, t.token, abort.signal));
    } catch (e) {
      if (isAbort(e)) return;
      delay *= 2;
    }
    if ((repeat || !this._source) && !this.view?.final && this._target === t)
      this._timer = setTimeout(() => this._poll(true), delay);
  }

  private _apply(view: OrderView): void {
    if (!this._target || view.orderId !== this._target.id) return;
    const final = view.final ?? isFinal(view.status);
    // A status never moves backwards; a repeat changes nothing.
    if (this.view && (view.status === this.view.status || RANK[view.status] < RANK[this.view.status])) return;
    this.view = { ...view, final };
    if (final) this.stop();
    this._onStatus(this.view);
    this._host.requestUpdate();
  }
}
