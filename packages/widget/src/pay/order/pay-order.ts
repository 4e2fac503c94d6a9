/**
 * Pay once there is an order: its payment page opened, its status followed (server-sent events, else polling),
 * its outcome shown with a way on (try again, open the payment page again, start over), and the order kept for
 * this tab so that the Back button shows it again. Loaded beside the first order's request, or at once when
 * this tab left an order in flight: a shopper who never presses Pay never downloads it.
 */
import { html, nothing, type ReactiveController, type TemplateResult } from 'lit';
import type { Order, OrderView } from '../../api/types.ts';
import type { FrameMessage } from '../../frame/frame-controller.ts';
import { CheckoutOrderEvent, CheckoutStatusEvent } from '../../frame/outcome-events.ts';
import { statusStyles } from '../../status/status.styles.ts';
import type { CheckoutHost, ViewContext } from '../../view/view.ts';
import { type OrderKey, orderMessages } from './order.messages.ts';
import { orderStyles } from './order.styles.ts';
import { isStatus, OrderStatusController } from './order-status-controller.ts';

/** What the order needs of the pay view. */
export interface OrderOwner {
  host: CheckoutHost & { _addStyles?(styles: typeof orderStyles): void };
  ctx: ViewContext;
  /** Where this tab keeps the order in flight (sessionStorage), per backend and product. */
  storeKey: string;
  /** Adds a controller for the view's lifetime. */
  own<C extends ReactiveController>(controller: C): C;
  /** The shopper starts over: the next attempt gets a new key. */
  onStartOver(): void;
}

export class PayOrder {
  order?: Order;
  private _outcome?: string;
  /** The order shown was restored from this tab's storage (its payment page is not open). */
  private _restored = false;
  /** The payment page came back to the shop (the backend's return page): nothing to open again. */
  private _returned = false;
  private _status?: OrderStatusController;

  constructor(private _owner: OrderOwner) {
    _owner.host._addStyles?.(statusStyles);
    _owner.host._addStyles?.(orderStyles);
  }

  private _keep(order: Order | undefined): void {
    try {
      if (order) sessionStorage.setItem(this._owner.storeKey, JSON.stringify(order));
      else sessionStorage.removeItem(this._owner.storeKey);
    } catch {
      // Storage off (a private window, a sandboxed frame): the order is simply not restored.
    }
  }

  private _follow(order: Order): void {
    this._status ??= this._owner.own(new OrderStatusController(this._owner.host, (v) => this._onStatus(v)));
    this._status.follow(this._owner.host.api, order.orderId, order.statusToken);
  }

  /** Shows the order this tab left in flight, and asks the backend for its current status. */
  restore(order: Order): void {
    this.order = order;
    this._restored = true;
    this._follow(order);
    this._owner.host.requestUpdate();
  }

  /** A new order: its payment page opens (after `loadFrame`) and its status is followed. */
  opened(order: Order): void {
    const { host } = this._owner;
    this.order = order;
    this._restored = this._returned = false;
    this._keep(order);
    this._outcome = undefined;
    host.dispatchEvent(
      new CheckoutOrderEvent({
        kind: 'pay',
        orderId: order.orderId,
        status: order.status,
        url: order.link,
        expiresAt: order.expiresAt ?? undefined,
        amount: order.product.price,
        currency: order.product.currency,
      }),
    );
    this._follow(order);
    this._open(order);
  }

  private _open(order: Order): void {
    const apiOrigin = new URL(this._owner.host.api, location.href).origin;
    this._owner.ctx.open(order.link, [new URL(order.link).origin, apiOrigin]);
  }

  /** Starts over after an expired or failed payment: a new attempt gets a new key. */
  private _again(): void {
    this._status?.stop();
    this._owner.ctx.frame?.close();
    this._keep(undefined);
    this.order = undefined;
    this._restored = false;
    this._outcome = undefined;
    this._owner.onStartOver();
    this._owner.host.requestUpdate();
  }

  private _onStatus(v: OrderView): void {
    const { host, ctx } = this._owner;
    this._outcome = v.status;
    host.dispatchEvent(
      new CheckoutStatusEvent({
        orderId: v.orderId,
        status: v.status,
        final: v.final,
        ...(v.paid ? { paid: v.paid } : {}),
      }),
    );
    if (v.final) {
      this._keep(undefined);
      ctx.frame?.close();
      // An order found already ended on coming back (Back from the thank-you page) shows its outcome and stays:
      // going to return-url again would send the shopper forward from where they just went back.
      if (!this._restored) ctx.complete({ kind: 'pay', orderId: v.orderId, status: v.status });
      this._restored = false;
    }
  }

  /** Opens the payment page of the restored order again. */
  private async _resume(): Promise<void> {
    const order = this.order;
    if (!order) return;
    try {
      await this._owner.ctx.loadFrame();
    } catch (e) {
      this._owner.ctx.emitError(e);
      return;
    }
    this._restored = false;
    this._open(order);
    this._owner.host.requestUpdate();
  }

  onFrameMessage(m: FrameMessage): void {
    const { ctx } = this._owner;
    if (m.type === 'crypto-checkout:return') {
      // The backend's return page inside the frame: the payer is done with the payment page.
      const order = this.order;
      if (!order || m.orderId !== order.orderId) return;
      this._keep(undefined);
      this._returned = true;
      const status = isStatus(m.status) ? m.status : (this._status?.view?.status ?? order.status);
      ctx.frame?.close();
      this._status?.refresh();
      ctx.complete({ kind: 'pay', orderId: order.orderId, status });
    } else if (m.type === 'SWAPPED_ORDER_STATUS') {
      // A hint only (docs/upstream.md#postmessage): the backend says what the status is.
      this._status?.refresh();
    }
  }

  /** The order's status, with a way on when it needs the shopper (nothing once the shopper started over). */
  render(): TemplateResult | typeof nothing {
    const order = this.order;
    if (!order) return nothing;
    const t = (key: OrderKey | 'retry') => orderMessages(this._owner.ctx.loc, key);
    const outcome = this._outcome ?? order.status;
    const retry = outcome === 'expired' || outcome === 'failed' || outcome === 'cancelled';
    return html`<div part="status" class="status ${outcome ?? 'pending'}" role="status" aria-live="polite">
        <span class="icon" aria-hidden="true"></span>
        <p>${t(outcome === 'awaiting_payment' || !outcome ? 'pending' : (outcome as OrderKey))}</p>
        ${retry ? html`<button type="button" @click=${() => this._again()}>${t('retry')}</button>` : nothing}
      </div>
      ${
        // Its page is not open (this tab came back to it, or the shopper closed the modal): a way back to it.
        (this._restored || !(this._returned || this._owner.ctx.frame?.url)) &&
        !retry &&
        !this._status?.view?.final
          ? html`<div class="actions">
              <button part="button" type="button" class="primary" @click=${() => this._resume()}>
                ${t('resume')}
              </button>
              <button type="button" @click=${() => this._again()}>${t('startOver')}</button>
            </div>`
          : nothing
      }`;
  }
}
