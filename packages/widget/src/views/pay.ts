/** Pay mode: a product (or a merchant-minted checkout token) paid with crypto on the payment page. */
import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { ApiError, createOrder, getProduct, toApiError, verifyToken } from '../api/client.ts';
import type { Order, OrderView, Product } from '../api/types.ts';
import type { FrameMessage } from '../controllers/frame-controller.ts';
import type { OrderStatusController } from '../controllers/order-status-controller.ts';
import { CheckoutOrderEvent, CheckoutStatusEvent } from '../events.ts';
import type { MessageKey } from '../internal/messages.ts';
import { type PayKey, payMessages } from './pay.messages.ts';
import { payStyles } from './pay.styles.ts';
import { View } from './view.ts';

/** A key a double click cannot split: one per payment attempt, 128 random bits (`randomUUID` needs a secure context). */
const newKey = (): string => crypto.getRandomValues(new Uint32Array(4)).join('-');

export class PayView extends View {
  static override styles = payStyles;

  protected override t(key: PayKey | MessageKey, arg?: string): string {
    return payMessages(this.ctx.loc, key, arg);
  }

  private _busy = false;
  private _actionError?: ApiError;
  private _order?: Order;
  private _outcome?: string;
  private _payKey?: { key: string; body: string };
  private _payInFlight?: Promise<void>;

  private _product = this.own(
    new Task(this.host, {
      task: async ([api, id, token], { signal }): Promise<Product> => {
        if (token) return (await verifyToken(api, token, signal)).product;
        if (id) return getProduct(api, id, signal);
        throw new ApiError('NOT_FOUND'); // no product or checkout-token
      },
      args: () => [this.host.api, this.host.product, this.host.checkoutToken] as const,
      onComplete: ({ name, price, currency }) => {
        this.ctx.ready({ mode: 'pay', product: { name, price, currency } });
      },
      onError: (e) => this.ctx.emitError(e),
    }),
  );

  /** Follows the order's status; its code loads with the first order (pressed, or restored). */
  private _status?: OrderStatusController;
  private _statusCode?: typeof import('../controllers/order-status-controller.ts');
  private _statusLoad?: Promise<typeof import('../controllers/order-status-controller.ts')>;
  private _gone = false;

  /** Loads the status follower's code, once (a failed load is tried again with the next order). */
  private _loadStatus() {
    this._statusLoad ??= import('../controllers/order-status-controller.ts').catch((e: unknown) => {
      this._statusLoad = undefined;
      throw e;
    });
    return this._statusLoad;
  }

  /** Follows `order`'s status once the follower's code is here (unless another order or mode came meanwhile). */
  private async _follow(order: Order): Promise<void> {
    try {
      const code = await this._loadStatus();
      this._statusCode = code;
      if (this._order !== order || this._gone) return;
      this._status ??= this.own(new code.OrderStatusController(this.host, (v) => this._onStatus(v)));
      this._status.follow(this.host.api, order.orderId, order.statusToken);
    } catch {
      this.ctx.emitError(new ApiError('NETWORK_ERROR'));
    }
  }

  override dispose(): void {
    this._gone = true;
    super.dispose();
  }

  constructor(...args: ConstructorParameters<typeof View>) {
    super(...args);
    this._restore();
  }

  /**
   * Where the order in flight is kept for this tab, per backend and product (or checkout token): the Back button
   * (inline, or coming back from a redirect) shows that order and its status instead of a fresh form.
   */
  private get _storeKey(): string {
    const h = this.host;
    return `crypto-checkout:pay:${new URL(h.api, location.href).href}:${h.checkoutToken || h.product}`;
  }

  private _keep(order: Order | undefined): void {
    try {
      if (order) sessionStorage.setItem(this._storeKey, JSON.stringify(order));
      else sessionStorage.removeItem(this._storeKey);
    } catch {
      // Storage off (a private window, a sandboxed frame): the order is simply not restored.
    }
  }

  /** Shows the order this tab left in flight, if any, and asks the backend for its current status. */
  private _restore(): void {
    let order: Order | undefined;
    try {
      const saved = JSON.parse(sessionStorage.getItem(this._storeKey) ?? 'null') as Order | null;
      if (saved && typeof saved.orderId === 'string' && typeof saved.statusToken === 'string') order = saved;
    } catch {
      return;
    }
    if (!order) return;
    this._order = order;
    this._restored = true;
    this._follow(order);
  }

  /** The order shown was restored from this tab's storage (its payment page is not open). */
  private _restored = false;

  override render(): TemplateResult {
    return this.loaded(this._product, (p) => this._renderProduct(p));
  }

  private _onPay(e: Event): Promise<void> {
    e.preventDefault();
    // A second click while the first is in flight joins it: one attempt, one key, one order.
    this._payInFlight ??= this._createOrder().finally(() => {
      this._payInFlight = undefined;
    });
    return this._payInFlight;
  }

  private async _createOrder(): Promise<void> {
    const host = this.host;
    // Name and e-mail are asked once, on the payment page (which asks anyway), not here as well.
    const body = {
      ...(host.checkoutToken ? { checkoutToken: host.checkoutToken } : { product: host.product }),
      customer: {
        ...(host.country ? { country: host.country } : {}),
        lang: this.ctx.loc.slice(0, 2),
      },
      ...this.ctx.returnTo(),
    };
    const json = JSON.stringify(body);
    // Retrying the same body after a failure reuses the key, so a lost answer cannot make a second order.
    if (this._payKey?.body !== json) this._payKey = { key: newKey(), body: json };
    const { key } = this._payKey;
    this._busy = true;
    this._actionError = undefined;
    host.requestUpdate();
    // The payment page's code loads beside the order.
    const framed = this.ctx.loadFrame();
    framed.catch(() => {}); // awaited once the order is in
    this._loadStatus().catch(() => {});
    try {
      const order = await createOrder(host.api, body, key);
      await framed;
      this._order = order;
      this._restored = false;
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
      const apiOrigin = new URL(host.api, location.href).origin;
      this.ctx.open(order.link, [new URL(order.link).origin, apiOrigin]);
    } catch (err) {
      this._actionError = toApiError(err);
      this.ctx.emitError(err);
    } finally {
      this._busy = false;
      host.requestUpdate();
    }
  }

  /** Starts over after an expired or failed payment: a new attempt gets a new key. */
  private _again(): void {
    this._status?.stop();
    this.ctx.frame?.close();
    this._keep(undefined);
    this._order = undefined;
    this._restored = false;
    this._outcome = undefined;
    this._payKey = undefined;
    this.host.requestUpdate();
  }

  private _onStatus(v: OrderView): void {
    this._outcome = v.status;
    this.host.dispatchEvent(
      new CheckoutStatusEvent({
        orderId: v.orderId,
        status: v.status,
        final: v.final,
        ...(v.paid ? { paid: v.paid } : {}),
      }),
    );
    if (v.final) {
      this._keep(undefined);
      this.ctx.frame?.close();
      // An order found already ended on coming back (Back from the thank-you page) shows its outcome and stays:
      // going to return-url again would send the shopper forward from where they just went back.
      if (!this._restored) this.ctx.complete({ kind: 'pay', orderId: v.orderId, status: v.status });
      this._restored = false;
    }
  }

  override frameTitle(): string | undefined {
    const p = this._product.value;
    return p ? `${p.name} · ${this.money(p.price, p.currency)}` : undefined;
  }

  /** Opens the payment page of the restored order again. */
  private async _resume(): Promise<void> {
    const order = this._order;
    if (!order) return;
    try {
      await this.ctx.loadFrame();
    } catch (e) {
      this.ctx.emitError(e);
      return;
    }
    this._restored = false;
    const apiOrigin = new URL(this.host.api, location.href).origin;
    this.ctx.open(order.link, [new URL(order.link).origin, apiOrigin]);
    this.host.requestUpdate();
  }

  override onFrameMessage(m: FrameMessage): void {
    if (m.type === 'crypto-checkout:return') {
      // The backend's return page inside the frame: the payer is done with the payment page.
      const order = this._order;
      if (!order || m.orderId !== order.orderId) return;
      this._keep(undefined);
      const status = this._statusCode?.isStatus(m.status)
        ? m.status
        : (this._status?.view?.status ?? order.status);
      this.ctx.frame?.close();
      this._status?.refresh();
      this.ctx.complete({ kind: 'pay', orderId: order.orderId, status });
    } else if (m.type === 'SWAPPED_ORDER_STATUS') {
      // A hint only: the backend says what the status is.
      this._status?.refresh();
    }
  }

  private _renderProduct(p: Product): TemplateResult {
    const order = this._order;
    const outcome = this._outcome ?? order?.status;
    const retry = outcome === 'expired' || outcome === 'failed';
    return html`<form part="form" @submit=${(e: Event) => this._onPay(e)}>
      <div class="product">
        ${p.image ? html`<img src=${p.image} alt="" width="56" height="56" />` : nothing}
        <div>
          <p class="name">${p.name}</p>
          ${p.description ? html`<p class="desc">${p.description}</p>` : nothing}
        </div>
        <p class="price">${this.money(p.price, p.currency)}</p>
      </div>
      ${
        order
          ? html`<div part="status" class="status ${outcome ?? 'pending'}" role="status" aria-live="polite">
              <span class="icon" aria-hidden="true"></span>
              <p>${this.t(outcome === 'awaiting_payment' || !outcome ? 'pending' : (outcome as PayKey))}</p>
              ${retry ? html`<button type="button" @click=${() => this._again()}>${this.t('retry')}</button>` : nothing}
            </div>
            ${
              this._restored && !retry && !this._status?.view?.final
                ? html`<div class="actions">
                    <button part="button" type="button" class="primary" @click=${() => this._resume()}>
                      ${this.t('resume')}
                    </button>
                    <button type="button" @click=${() => this._again()}>${this.t('startOver')}</button>
                  </div>`
                : nothing
            }`
          : html`${this._actionError ? this.error(this._actionError) : nothing}
              <button part="button" class="primary" ?disabled=${this._busy}>${this.t('payCrypto')}</button>`
      }
    </form>`;
  }
}
