/** Pay mode: a product (or a merchant-minted checkout token) paid with crypto on the payment page. */
import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { ApiError, createOrder, getProduct, toApiError, verifyToken } from '../api/client.ts';
import type { Order, Product } from '../api/types.ts';
import type { FrameMessage } from '../frame/frame-controller.ts';
import { loadOnce } from '../internal/load-once.ts';
import type { Args, MessageKey } from '../internal/messages.ts';
import { skeleton } from '../view/parts.ts';
import { View } from '../view/view.ts';
import type { PayOrder } from './order/pay-order.ts';
import { type PayKey, payMessages } from './pay.messages.ts';
import { payStyles } from './pay.styles.ts';

/** A key a double click cannot split: one per payment attempt, 128 random bits (`randomUUID` needs a secure context). */
const newKey = (): string => crypto.getRandomValues(new Uint32Array(4)).join('-');

export class PayView extends View {
  static override styles = payStyles;

  protected override t(key: PayKey | MessageKey, args?: Args): string {
    return payMessages(this._ctx.loc, key, args);
  }

  private _busy = false;
  private _actionError?: ApiError;
  private _payKey?: { key: string; body: string };
  private _payInFlight?: Promise<void>;

  private _product = this.own(
    new Task(this._host, {
      task: async ([api, id, token], { signal }): Promise<Product> => {
        if (token) return (await verifyToken(api, token, signal)).product;
        if (id) return getProduct(api, id, signal);
        throw new ApiError('NOT_FOUND'); // no product or checkout-token
      },
      args: () => [this._host.api, this._host.product, this._host.checkoutToken] as const,
      onComplete: ({ name, price, currency }) => {
        this._ctx.ready({ mode: 'pay', product: { name, price, currency } });
      },
      onError: (e) => this._ctx.emitError(e),
    }),
  );

  /** The order and what follows it (pay-order.ts): its code loads with the first order (pressed, or restored). */
  private _order?: PayOrder;
  /** This tab left an order in flight: it shows once the order's code is here (no Pay button meanwhile). */
  private _restoring = false;
  private _gone = false;

  /** Loads the order's code, once (a failed load is tried again with the next press). */
  private _loadOrder = loadOnce(() =>
    import('./order/pay-order.ts').then(({ PayOrder }) => {
      this._order ??= new PayOrder({
        host: this._host,
        ctx: this._ctx,
        storeKey: this._storeKey,
        own: (c) => this.own(c),
        onStartOver: () => {
          this._payKey = undefined;
        },
      });
      return this._order;
    }),
  );

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
    const h = this._host;
    return `crypto-checkout:pay:${new URL(h.api, location.href).href}:${h.checkoutToken || h.product}`;
  }

  /** Shows the order this tab left in flight, if any (its code loads at once). */
  private _restore(): void {
    let order: Order | undefined;
    try {
      const saved = JSON.parse(sessionStorage.getItem(this._storeKey) ?? 'null') as Order | null;
      if (saved && typeof saved.orderId === 'string' && typeof saved.statusToken === 'string') order = saved;
    } catch {
      return;
    }
    if (!order) return;
    this._restoring = true;
    this._loadOrder().then(
      (o) => {
        this._restoring = false;
        if (!this._gone) o.restore(order);
      },
      (e) => {
        // Offline: the Pay button comes back (the order is still kept for the next visit).
        this._restoring = false;
        this._ctx.emitError(e);
        this._host.requestUpdate();
      },
    );
  }

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
    const host = this._host;
    // Name and e-mail are asked once, on the payment page (which asks anyway: docs/upstream.md#payment-orders), not
    // here as well.
    const body = {
      ...(host.checkoutToken ? { checkoutToken: host.checkoutToken } : { product: host.product }),
      customer: {
        ...(host.country ? { country: host.country } : {}),
        lang: this._ctx.loc.slice(0, 2),
      },
      ...this._ctx.returnTo(),
    };
    const json = JSON.stringify(body);
    // Retrying the same body after a failure reuses the key, so a lost answer cannot make a second order.
    if (this._payKey?.body !== json) this._payKey = { key: newKey(), body: json };
    const { key } = this._payKey;
    this._busy = true;
    this._actionError = undefined;
    host.requestUpdate();
    // The payment page's code, and the order's, load beside the order.
    const loaded = Promise.all([this._ctx.loadFrame(), this._loadOrder()]);
    loaded.catch(() => {}); // awaited once the order is in
    try {
      const order = await createOrder(host.api, body, key);
      const [, payOrder] = await loaded;
      payOrder.opened(order);
    } catch (err) {
      this._actionError = toApiError(err);
      this._ctx.emitError(err);
    } finally {
      this._busy = false;
      host.requestUpdate();
    }
  }

  /** What is paid, its price left to right in every language (between isolate marks: the title is text). */
  override frameTitle(): string | undefined {
    const p = this._product.value;
    return p ? `${p.name} · \u2066${this.money(p.price, p.currency)}\u2069` : undefined;
  }

  override onFrameMessage(m: FrameMessage): void {
    this._order?.onFrameMessage(m);
  }

  /** The product's name and description are the merchant's words, in a language of their own: `dir="auto"`. */
  private _renderProduct(p: Product): TemplateResult {
    return html`<form part="form" @submit=${(e: Event) => this._onPay(e)}>
      <div class="product">
        ${p.image ? html`<img src=${p.image} alt="" width="56" height="56" />` : nothing}
        <div>
          <p class="name" dir="auto">${p.name}</p>
          ${p.description ? html`<p class="desc" dir="auto">${p.description}</p>` : nothing}
        </div>
        <p class="price" dir="ltr">${this.money(p.price, p.currency)}</p>
      </div>
      ${
        this._order?.order
          ? this._order.render()
          : this._restoring
            ? skeleton(this._ctx.loc)
            : html`${this._actionError ? this.error(this._actionError) : nothing}
              <button part="button" class="primary" ?disabled=${this._busy}>${this.t('payCrypto')}</button>`
      }
    </form>`;
  }
}

/** The mode's view, as view/views.ts loads it. */
export { PayView as default };
