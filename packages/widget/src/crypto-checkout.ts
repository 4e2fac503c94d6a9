import { Task, TaskStatus } from '@lit/task';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import {
  ApiError,
  createDepositAddress,
  createOrder,
  createRampSession,
  getCatalog,
  getProduct,
  toApiError,
  verifyToken,
} from './api/client.ts';
import type { Catalog, Crypto, Method, Order, OrderView, Product, Quote } from './api/types.ts';
import { type Display, FrameController, type FrameMessage } from './controllers/frame-controller.ts';
import { isStatus, OrderStatusController } from './controllers/order-status-controller.ts';
import { QuoteController, type QuoteRequest } from './controllers/quote-controller.ts';
import { styles } from './crypto-checkout.styles.ts';
import {
  CheckoutCloseEvent,
  type CheckoutCompleteDetail,
  CheckoutCompleteEvent,
  CheckoutErrorEvent,
  type CheckoutMode,
  CheckoutOrderEvent,
  CheckoutQuoteEvent,
  CheckoutReadyEvent,
  CheckoutStatusEvent,
} from './events.ts';
import {
  decimalSeparator,
  flag,
  formatAgo,
  formatCrypto,
  formatMoney,
  formatPercent,
  localNames,
  parseAmount,
  toInputValue,
  validLocale,
} from './internal/format.ts';
import { checkLimits, type LimitBreach, limitRange, limitsOf } from './internal/limits.ts';
import { errorKey, type MessageKey, msg } from './internal/messages.ts';

type Theme = 'light' | 'dark' | 'auto';

/** What the render helpers need of a Task: its value, its state, and a way to run it again. */
interface Loadable<T> {
  value?: T;
  status: TaskStatus;
  error: unknown;
  run(): unknown;
}

/** An entry of a searchable picker: `text` shows in the closed field, `search` is what typing matches. */
interface PickerItem {
  code: string;
  text: string;
  search: string;
  icon?: TemplateResult;
  body: unknown;
}

/** A key a double click cannot split: one per payment attempt, 128 random bits (`randomUUID` needs a secure context). */
const newKey = (): string => crypto.getRandomValues(new Uint32Array(4)).join('-');

/**
 * An embeddable crypto checkout: buy or sell crypto through a ramp, pay for a product with crypto, or show a
 * customer's permanent deposit address. It talks only to the merchant's backend (`api`) and never holds a key.
 *
 * @summary Buy, sell, pay or deposit crypto, with one element.
 *
 * @fires {CheckoutReadyEvent} checkout-ready - The catalog or product has loaded.
 * @fires {CheckoutQuoteEvent} checkout-quote - A new quote is shown; `detail` is the backend's quote.
 * @fires {CheckoutOrderEvent} checkout-order - An order or ramp session was created; its page is being shown.
 * @fires {CheckoutStatusEvent} checkout-status - The order's status changed.
 * @fires {CheckoutCompleteEvent} checkout-complete - The checkout ended; cancelable (stays instead of going to `return-url`).
 * @fires {CheckoutErrorEvent} checkout-error - Something failed: `{ code, message, retryable }`.
 * @fires {CheckoutCloseEvent} checkout-close - The modal was closed.
 *
 * @csspart base - The wrapper of everything.
 * @csspart form - The form of the current mode.
 * @csspart quote - The quote: rate, fees, total and freshness.
 * @csspart button - The main action button.
 * @csspart status - The order status and outcome.
 * @csspart frame - The iframe showing the payment or ramp page.
 * @csspart dialog - The modal dialog around the frame.
 *
 * @cssprop [--checkout-accent=#4f46e5] - Buttons, focus rings and selection.
 * @cssprop [--checkout-radius=10px] - Corner radius.
 * @cssprop [--checkout-font-family=system-ui, sans-serif] - Font.
 * @cssprop [--checkout-surface=#fff] - Background (dark theme: #18181b).
 * @cssprop [--checkout-text=#18181b] - Text colour (dark theme: #f4f4f5).
 * @cssprop [--checkout-danger=#b42318] - Errors and limit messages (dark theme: #ff9b8f).
 */
export class CryptoCheckout extends LitElement {
  static override styles = styles;
  static override properties = {
    api: {},
    mode: {},
    product: {},
    checkoutToken: { attribute: 'checkout-token' },
    customerToken: { attribute: 'customer-token' },
    fiat: {},
    crypto: {},
    amount: {},
    country: {},
    paymentMethod: { attribute: 'payment-method' },
    payoutMethod: { attribute: 'payout-method' },
    walletAddress: { attribute: 'wallet-address' },
    display: {},
    returnUrl: { attribute: 'return-url' },
    locale: {},
    theme: { reflect: true },
    _fiatText: { state: true },
    _cryptoText: { state: true },
    _input: { state: true },
    _query: { state: true },
    _open: { state: true },
    _active: { state: true },
    _chain: { state: true },
    _busy: { state: true },
    _actionError: { state: true },
    _order: { state: true },
    _outcome: { state: true },
    _copied: { state: true },
    _wallet: { state: true },
    _walletMissing: { state: true },
  };

  /** Base URL of the merchant's backend API. */
  api = '/api';
  /** What the element does: `buy`, `sell`, `pay` or `deposit`. */
  mode: CheckoutMode = 'pay';
  /** Product id to pay for (pay mode). */
  product = '';
  /** A merchant-minted checkout token to pay (pay mode); wins over `product`. */
  checkoutToken = '';
  /** A merchant-minted customer token (deposit mode). */
  customerToken = '';
  /** Fiat currency code; the country's default when empty. Updated when the shopper picks one. */
  fiat = '';
  /** Crypto code (`USDC_BASE`) or symbol; the catalog's default when empty. Updated when the shopper picks one. */
  crypto = '';
  /** Initial fiat amount, a decimal string (buy, sell). */
  amount = '';
  /** ISO country code; the backend guesses it when empty. Updated when the shopper picks one. */
  country = '';
  /** Payment method id (buy); the country's default when empty. */
  paymentMethod = '';
  /** Payout method id (sell); the country's default when empty. */
  payoutMethod = '';
  /** Wallet address passed to the ramp (buy). */
  walletAddress = '';
  /** How the payment or ramp page is shown: `inline`, `modal`, `redirect` or `auto`. */
  display: Display = 'inline';
  /** Where to go when the checkout ends, after showing the outcome for 1.5 s; `orderId` and `status` are added to it. */
  returnUrl = '';
  /** BCP 47 locale for text and numbers; the page's `lang`, else the browser's, when empty. */
  locale = '';
  /** Colour scheme: `light`, `dark` or `auto` (follows the system). */
  theme: Theme = 'light';

  private _fiatText = '';
  private _cryptoText = '';
  private _input: 'fiat' | 'crypto' = 'fiat';
  private _query = '';
  /** The id of the picker whose list is open, or ''. */
  private _open = '';
  private _active = 0;
  private _chain = '';
  private _busy = false;
  private _actionError?: ApiError;
  private _order?: Order;
  private _outcome?: string;
  private _copied = false;
  /** The wallet address typed in the buy form (when the `wallet-address` attribute gives none). */
  private _wallet = '';
  /** Continue was pressed without a wallet address (buy). */
  private _walletMissing = false;
  /** The shopper typed an amount since the last update: only typing waits for a pause. */
  private _typed = false;

  /** The limit breach or invalid amount found before any request. */
  private _amountIssue?: LimitBreach | 'invalid';
  private _payKey?: { key: string; body: string };
  private _payInFlight?: Promise<void>;
  private _rampOrderId?: string;
  private _completed = '';

  private _quotes = new QuoteController(
    this,
    (q) => this._onQuote(q),
    (e) => this._emitError(e),
  );
  private _status = new OrderStatusController(this, (v) => this._onStatus(v));
  private _frame = new FrameController(
    this,
    (m) => this._onFrameMessage(m),
    (url) => this._navigate(url),
  );

  private _catalog = new Task(this, {
    task: async ([api, mode, country], { signal }) =>
      mode === 'pay' ? undefined : getCatalog(api, country, signal),
    args: () => [this.api, this.mode, this.country] as const,
    onComplete: (c) => {
      if (c) this.dispatchEvent(new CheckoutReadyEvent({ mode: this.mode, country: c.country }));
    },
    onError: (e) => this._emitError(e),
  });

  private _product = new Task(this, {
    task: async ([api, mode, id, token], { signal }): Promise<Product | undefined> => {
      if (mode !== 'pay') return undefined;
      if (token) return (await verifyToken(api, token, signal)).product;
      if (id) return getProduct(api, id, signal);
      throw new ApiError('NOT_FOUND'); // no product or checkout-token
    },
    args: () => [this.api, this.mode, this.product, this.checkoutToken] as const,
    onComplete: (p) => {
      if (p) {
        const { name, price, currency } = p;
        this.dispatchEvent(new CheckoutReadyEvent({ mode: 'pay', product: { name, price, currency } }));
      }
    },
    onError: (e) => this._emitError(e),
  });

  private _address = new Task(this, {
    task: async ([api, mode, token, chain], { signal }) => {
      if (mode !== 'deposit' || !chain) return undefined;
      if (!token) throw new ApiError('TOKEN_INVALID'); // no customer-token
      return createDepositAddress(api, token, chain, signal);
    },
    args: () => [this.api, this.mode, this.customerToken, this._chainId] as const,
    onError: (e) => this._emitError(e),
  });

  /** Sends the whole page to `url`. */
  protected _navigate(url: string): void {
    location.assign(url);
  }

  /** The locale last worked out, and what it came from (validating a tag on every string costs). */
  private _locFrom?: string;
  private _locTo = 'en';
  /** The locale the amount fields' texts are written in. */
  private _textLoc = '';
  /** The ramp pickers' entries (countries, currencies, cryptos), for the catalog they were made for; a locale switch drops them. */
  private _items?: [Catalog, PickerItem[], PickerItem[], PickerItem[]];

  private get _loc(): string {
    // Optional chaining keeps a server-side render (no document) working.
    const from = this.locale || globalThis.document?.documentElement.lang || globalThis.navigator?.language;
    if (from !== this._locFrom) {
      this._locFrom = from;
      this._locTo = validLocale(from);
    }
    return this._locTo;
  }

  private _t(key: MessageKey, arg?: string): string {
    return msg(this._loc, key, arg);
  }

  private _money(amount: string, currency: string): string {
    return formatMoney(amount, currency, this._loc);
  }

  private get _chainId(): string {
    return this._chain || this._catalog.value?.chains[0]?.id || '';
  }

  /** `return-url` made absolute (the backend only accepts full URLs on the shop's origins). */
  private _returnTo(): { returnUrl?: string } {
    return this.returnUrl ? { returnUrl: new URL(this.returnUrl, location.href).href } : {};
  }

  private _emitError(e: unknown): void {
    const { code, retryable } = toApiError(e);
    this.dispatchEvent(new CheckoutErrorEvent({ code, message: this._t(errorKey(code)), retryable }));
  }

  /** The shopper's effective choices in buy/sell: what they picked, else the catalog's defaults. */
  /**
   * True while the shown catalog is the previous country's and the shopper's pick is still loading: the picker
   * shows the pick at once and no quote leaves for the old country (that read "United States" after a click
   * on "United Kingdom" until the new catalog arrived).
   */
  private _catalogStale(c: Catalog): boolean {
    return this._catalog.status === TaskStatus.PENDING && !!this.country && c.country !== this.country;
  }

  private _selection(c: Catalog) {
    const sell = this.mode === 'sell';
    const fiat = c.fiats.some((f) => f.code === this.fiat) ? this.fiat : c.defaults.fiat;
    const find = (code: string) => c.cryptos.find((x) => x.code === code || x.symbol === code);
    const crypto = find(this.crypto) ?? find(c.defaults.crypto) ?? c.cryptos[0];
    const methods = (sell ? c.payoutMethods : c.paymentMethods).filter(
      (m) => !m.currencies.length || m.currencies.includes(fiat),
    );
    const byId = (id: string | null) => methods.find((m) => m.id === id);
    const method =
      byId(sell ? this.payoutMethod : this.paymentMethod) ??
      byId(sell ? c.defaults.payoutMethod : c.defaults.paymentMethod) ??
      methods.find((m) => m.isDefault) ??
      methods[0];
    return { fiat, crypto, methods, method };
  }

  override willUpdate(changed: PropertyValues<this>): void {
    // After a locale switch the amounts are shown in the new locale's way, except the one being typed in.
    const loc = this._loc;
    const from = this._textLoc;
    if (from && loc !== from) {
      this._items = undefined;
      const typing = (this.renderRoot as ShadowRoot).activeElement?.id;
      const again = (id: string, text: string) => {
        const v = id !== typing && parseAmount(text, from);
        return v ? toInputValue(v, loc) : text;
      };
      this._fiatText = again('fiat', this._fiatText);
      this._cryptoText = again('crypto', this._cryptoText);
    }
    this._textLoc = loc;
    if (changed.has('amount')) {
      this._fiatText = this.amount ? toInputValue(this.amount, loc) : '';
      this._input = 'fiat';
    }
    // Another mode abandons the payment in progress, its status stream included.
    if (changed.has('mode') && this.hasUpdated) this._again();
    // The quote request follows the current choices; the controller ignores a request it already has.
    // Before the catalog, a request the attributes fully specify flies beside it and shows once it confirms.
    this._amountIssue = undefined;
    const request = this._quoteRequest();
    // No quote for what was typed (empty, invalid, out of limits): the other field must not show an old one.
    if (!request) {
      if (this._input === 'fiat') this._cryptoText = '';
      else this._fiatText = '';
    }
    this._quotes.set(request, this._typed, !this._catalog.value);
    this._typed = false;
  }

  override firstUpdated(): void {
    // The first requests are out: load the locale's number data (the first Intl.NumberFormat of a page, ~15 ms)
    // while they fly rather than once they are back, when the answers are waiting to be shown.
    setTimeout(() => decimalSeparator(this._loc));
  }

  private _quoteRequest(): QuoteRequest | undefined {
    const c = this._catalog.value;
    const side = this.mode;
    if (side !== 'buy' && side !== 'sell') return undefined;
    const sell = side === 'sell';
    // With the catalog: the shopper's effective choices (checked against its limits); without: the attributes.
    if (c && this._catalogStale(c)) return undefined;
    const s = c && this._selection(c);
    const fiat = s ? s.fiat : this.fiat;
    const crypto = s ? s.crypto?.code : this.crypto;
    const method = s ? s.method?.id : sell ? this.payoutMethod : this.paymentMethod;
    const country = c ? c.country : this.country;
    const byFiat = this._input === 'fiat';
    const text = byFiat ? this._fiatText : this._cryptoText;
    const amount = parseAmount(text, this._loc);
    if (!amount || !crypto || !method || !fiat || !country) {
      if (text.trim() && !amount) this._amountIssue = 'invalid';
      return undefined;
    }
    if (s && byFiat) this._amountIssue = checkLimits(s.method, fiat, amount) ?? undefined;
    if (this._amountIssue) return undefined;
    return {
      api: this.api,
      side,
      body: {
        [sell ? 'payoutMethod' : 'paymentMethod']: method,
        country,
        fiat,
        crypto,
        [byFiat ? 'fiatAmount' : 'cryptoAmount']: amount,
      },
    };
  }

  private _onQuote(q: Quote): void {
    if (q.input === 'fiat') this._cryptoText = toInputValue(q.crypto.amount, this._loc);
    else this._fiatText = toInputValue(q.fiat.amount, this._loc);
    this.dispatchEvent(new CheckoutQuoteEvent(q));
  }

  // ---- actions ----

  /** Runs a shopper's action: busy meanwhile; a failure is shown beside the button and emitted. */
  private async _act(action: () => Promise<void>): Promise<void> {
    this._busy = true;
    this._actionError = undefined;
    try {
      await action();
    } catch (err) {
      this._actionError = toApiError(err);
      this._emitError(err);
    } finally {
      this._busy = false;
    }
  }

  private async _continue(e: Event): Promise<void> {
    e.preventDefault();
    const c = this._catalog.value;
    const q = this._quotes.quote;
    const side = this.mode;
    if (!c || !q || this._busy || (side !== 'buy' && side !== 'sell')) return;
    const { method } = this._selection(c);
    // The ramp needs somewhere to send what is bought: ask here rather than send a request bound to fail.
    const wallet = this.walletAddress || this._wallet.trim();
    if (side === 'buy' && !wallet) {
      this._walletMissing = true;
      this.renderRoot.querySelector<HTMLInputElement>('#wallet')?.focus();
      return;
    }
    await this._act(async () => {
      const s = await createRampSession(this.api, {
        side,
        method: method?.id,
        country: c.country,
        fiat: q.fiat.currency,
        crypto: q.crypto.currency,
        ...(q.input === 'fiat' ? { fiatAmount: q.fiat.amount } : { cryptoAmount: q.crypto.amount }),
        ...(side === 'buy' ? { walletAddress: wallet } : {}),
        ...this._returnTo(),
      });
      this._rampOrderId = undefined;
      this._completed = '';
      this.dispatchEvent(new CheckoutOrderEvent({ kind: side, url: s.url, expiresAt: s.expiresAt }));
      this._frame.open(s.url, [s.origin || new URL(s.url).origin], this.display);
    });
  }

  private _onPay(e: Event): Promise<void> {
    e.preventDefault();
    // A second click while the first is in flight joins it: one attempt, one key, one order.
    this._payInFlight ??= this._createOrder(e.target as HTMLFormElement).finally(() => {
      this._payInFlight = undefined;
    });
    return this._payInFlight;
  }

  private _createOrder(form: HTMLFormElement): Promise<void> {
    const data = new FormData(form);
    const name = String(data.get('name') ?? '').trim();
    const email = String(data.get('email') ?? '').trim();
    const body = {
      ...(this.checkoutToken ? { checkoutToken: this.checkoutToken } : { product: this.product }),
      customer: {
        ...(name ? { name } : {}),
        ...(email ? { email } : {}),
        ...(this.country ? { country: this.country } : {}),
        lang: this._loc.slice(0, 2),
      },
      ...this._returnTo(),
    };
    const json = JSON.stringify(body);
    // Retrying the same body after a failure reuses the key, so a lost answer cannot make a second order.
    if (this._payKey?.body !== json) this._payKey = { key: newKey(), body: json };
    const { key } = this._payKey;
    return this._act(async () => {
      const order = await createOrder(this.api, body, key);
      this._order = order;
      this._outcome = undefined;
      this._completed = '';
      this.dispatchEvent(
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
      this._status.follow(this.api, order.orderId, order.statusToken);
      const apiOrigin = new URL(this.api, location.href).origin;
      this._frame.open(order.link, [new URL(order.link).origin, apiOrigin], this.display);
    });
  }

  /** Starts over after an expired or failed payment: a new attempt gets a new key. */
  private _again(): void {
    this._status.stop();
    this._frame.close();
    this._order = undefined;
    this._outcome = undefined;
    this._payKey = undefined;
  }

  private _onStatus(v: OrderView): void {
    this._outcome = v.status;
    this.dispatchEvent(
      new CheckoutStatusEvent({
        orderId: v.orderId,
        status: v.status,
        final: v.final,
        ...(v.paid ? { paid: v.paid } : {}),
      }),
    );
    if (v.final) {
      this._frame.close();
      this._complete({ kind: 'pay', orderId: v.orderId, status: v.status });
    }
  }

  private _complete(detail: CheckoutCompleteDetail): void {
    const once = `${detail.kind}:${detail.orderId ?? ''}`;
    if (this._completed === once) return;
    this._completed = once;
    let returnUrl: string | undefined;
    if (this.returnUrl) {
      const url = new URL(this.returnUrl, location.href);
      if (detail.orderId) url.searchParams.set('orderId', detail.orderId);
      url.searchParams.set('status', detail.status);
      returnUrl = url.href;
    }
    const event = new CheckoutCompleteEvent({ ...detail, ...(returnUrl ? { returnUrl } : {}) });
    this.dispatchEvent(event);
    // The outcome (a polite status) stays on screen for 1.5 s: leaving at once, the payer would never read it.
    if (returnUrl && !event.defaultPrevented) setTimeout(() => this._navigate(returnUrl), 1500);
  }

  private _onFrameMessage(m: FrameMessage): void {
    const data = (m.data && typeof m.data === 'object' ? m.data : {}) as Record<string, unknown>;
    // The ramp's order id comes with SWAPPED_ORDER_DATA and the success messages.
    if (typeof data.order_id === 'string') this._rampOrderId = data.order_id;
    switch (m.type) {
      case 'crypto-checkout:return': {
        // The backend's return page inside the frame: the payer is done with the payment page.
        const order = this._order;
        if (!order || m.orderId !== order.orderId) return;
        const status = isStatus(m.status) ? m.status : (this._status.view?.status ?? order.status);
        this._frame.close();
        this._status.refresh();
        this._complete({ kind: 'pay', orderId: order.orderId, status });
        return;
      }
      case 'SWAPPED_ORDER_STATUS':
        // A hint only: the backend says what the status is.
        this._status.refresh();
        return;
      case 'SWAPPED_TRANSACTION_SUCCESSFUL':
      case 'SWAPPED_WITHDRAWAL_SUCCESSFUL':
        this._outcome = 'done';
        this._complete({
          kind: this.mode === 'sell' ? 'sell' : 'buy',
          status: 'completed',
          ...(this._rampOrderId ? { orderId: this._rampOrderId } : {}),
        });
        return;
      case 'SWAPPED_ERROR':
        // The page shows its own explanation; the merchant hears of it.
        this._emitError(new ApiError('UPSTREAM_ERROR'));
        return;
      case 'SWAPPED_CLOSE':
        this._frame.close();
        this.dispatchEvent(new CheckoutCloseEvent({ reason: 'page' }));
    }
  }

  private _onDialogClose(): void {
    if (!this._frame.url) return;
    this._frame.close();
    this.dispatchEvent(new CheckoutCloseEvent({ reason: 'user' }));
  }

  private async _copy(address: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(address);
    } catch {
      // No Clipboard API (insecure context, permissions): copy from the selected field instead.
      const field = this.renderRoot.querySelector<HTMLInputElement>('#address');
      field?.select();
      document.execCommand('copy');
    }
    this._copied = true;
    setTimeout(() => {
      this._copied = false;
    }, 2500);
  }

  // ---- rendering ----

  override render(): TemplateResult {
    const mode = this.mode;
    return html`<div part="base" class="base ${this.theme}" lang=${this._loc}>
      ${
        mode === 'pay'
          ? this._loaded(this._product, (p) => this._renderPay(p))
          : this._loaded(this._catalog, (c) =>
              mode === 'deposit' ? this._renderDeposit(c) : this._renderRamp(c),
            )
      }
      ${this._renderFrame()}
    </div>`;
  }

  /** A task's content once it has a value (kept while it reloads), else its error or a skeleton. */
  private _loaded<T>(task: Loadable<T>, ready: (value: T) => TemplateResult): TemplateResult {
    return task.value ? ready(task.value) : (this._failed(task) ?? this._skeleton());
  }

  /** The task's error with a retry, if its last run failed. */
  private _failed(task: Loadable<unknown>): TemplateResult | undefined {
    return task.status === TaskStatus.ERROR ? this._error(task.error, () => task.run()) : undefined;
  }

  private _skeleton(): TemplateResult {
    return html`<div class="skeleton" role="status">
      <span class="sr">${this._t('loading')}</span><i></i><i></i><i></i>
    </div>`;
  }

  private _error(e: unknown, retry?: () => void): TemplateResult {
    const err = toApiError(e);
    return html`<div class="error" role="alert">
      <p>${this._t(errorKey(err.code))}</p>
      ${retry && err.retryable ? html`<button type="button" @click=${retry}>${this._t('retry')}</button>` : nothing}
    </div>`;
  }

  /** A control with its label. */
  private _field(id: string, label: string, control: TemplateResult): TemplateResult {
    return html`<div class="field"><label for=${id}>${label}</label>${control}</div>`;
  }

  private _renderRamp(c: Catalog): TemplateResult {
    const sell = this.mode === 'sell';
    const { fiat, crypto, methods, method } = this._selection(c);
    const q = this._quotes;
    const message = this._amountMessage();
    const [, countries, fiats, cryptos] = this._pickerItems(c);
    const amount = (which: 'fiat' | 'crypto', key: MessageKey, unit: string, value: string) =>
      this._field(
        which,
        `${this._t(key)} (${unit})`,
        html`<input
          id=${which}
          inputmode="decimal"
          autocomplete="off"
          placeholder="0"
          .value=${value}
          aria-invalid=${String(this._input === which && !!message)}
          aria-describedby="amount-msg"
          @input=${(e: Event) => {
            const v = (e.target as HTMLInputElement).value;
            this._input = which;
            this._typed = true;
            if (which === 'fiat') this._fiatText = v;
            else this._cryptoText = v;
          }}
        />`,
      );
    const fiatField = amount('fiat', sell ? 'get' : 'pay', fiat, this._fiatText);
    const cryptoField = amount('crypto', sell ? 'sell' : 'get', crypto?.symbol ?? '', this._cryptoText);
    return html`<form part="form" novalidate @submit=${this._continue} aria-busy=${String(this._catalog.status === TaskStatus.PENDING)}>
      ${this._failed(this._catalog)}
      <div class="row">
        ${this._picker(
          'country',
          this._t('country'),
          countries,
          this._catalogStale(c) ? this.country : c.country,
          (v) => {
            this.country = v;
            this.fiat = '';
            this.paymentMethod = '';
            this.payoutMethod = '';
          },
        )}
        ${this._picker('currency', this._t('fiat'), fiats, fiat, (v) => {
          this.fiat = v;
        })}
      </div>
      ${this._picker('crypto-search', this._t('crypto'), cryptos, crypto?.code, (v) => {
        this.crypto = v;
      })}
      ${
        methods.length
          ? html`<fieldset class="methods">
              <legend>${this._t(sell ? 'payoutMethod' : 'paymentMethod')}</legend>
              ${methods.map((m) => this._method(m, m === method))}
            </fieldset>
            <div class="row">${sell ? [cryptoField, fiatField] : [fiatField, cryptoField]}</div>
            <p id="amount-msg" class="msg" role="alert">${message}</p>
            ${this._renderQuote(crypto)}
            ${
              sell || this.walletAddress
                ? nothing
                : this._field(
                    'wallet',
                    this._t('wallet'),
                    html`<input id="wallet" required autocomplete="off" spellcheck="false" .value=${this._wallet}
                      aria-invalid=${String(this._walletMissing)} aria-describedby="wallet-msg"
                      @input=${(e: Event) => {
                        this._wallet = (e.target as HTMLInputElement).value;
                        this._walletMissing = false;
                      }} />
                    <p id="wallet-msg" class="msg" role="alert">${this._walletMissing ? this._t('walletMissing') : ''}</p>`,
                  )
            }
            ${this._actionError ? this._error(this._actionError) : nothing}
            <button part="button" class="primary" ?disabled=${!q.quote || this._busy}>${this._t('continue')}</button>
            ${this._outcome === 'done' ? html`<p part="status" class="status paid" role="status">${this._t('done')}</p>` : nothing}`
          : html`<p class="empty" role="status">${this._t('empty')}</p>`
      }
    </form>`;
  }

  /** The backend's AMOUNT_TOO_LOW/HIGH for a currency the widget could not check itself. */
  private _limitError(): ApiError | undefined {
    const e = this._quotes.error;
    return e && (e.code === 'AMOUNT_TOO_LOW' || e.code === 'AMOUNT_TOO_HIGH') ? e : undefined;
  }

  /** What is wrong with the amount typed (invalid, or outside the method's limits), or ''. */
  private _amountMessage(): string {
    const issue = this._amountIssue;
    if (issue === 'invalid') return this._t('invalid');
    const e = this._limitError();
    const d = e?.details;
    const low = (issue ?? e)?.code === 'AMOUNT_TOO_LOW';
    const limit = issue ? issue.limit : low ? d?.min : d?.max;
    const currency = issue ? issue.currency : d?.currency;
    if (limit && currency) return this._t(low ? 'min' : 'max', this._money(limit, currency));
    return e ? this._t('eInput') : '';
  }

  private _method(m: Method, checked: boolean): TemplateResult {
    const l = limitsOf(m);
    return html`<label class="method">
      <input
        type="radio"
        name="method"
        .checked=${checked}
        @change=${() => {
          if (this.mode === 'sell') this.payoutMethod = m.id;
          else this.paymentMethod = m.id;
        }}
      />
      ${m.icon ? this._icon(m.icon, m.iconLight ? 'lt' : '') : nothing}
      ${m.icon && m.iconLight ? this._icon(m.iconLight, 'dk') : nothing}
      <span>${m.name}</span>
      <small>${formatPercent(m.feePercent, this._loc)} + ${this._money(m.fixedFee, 'EUR')}${limitRange(l, (a, c) => this._money(a, c))}</small>
    </label>`;
  }

  /** A method's logo; `lt`/`dk`: the variant for light or dark surfaces (the upstream's `iconLight` is for dark). */
  private _icon(src: string, variant: string): TemplateResult {
    return html`<img class=${variant} src=${src} alt="" width="24" height="24" loading="lazy" decoding="async" />`;
  }

  /**
   * A searchable picker (ARIA combobox + listbox): type to filter (matches at a word's start first), arrows to
   * move, Enter to pick, Escape to close. One serves crypto, country and currency; only one list is open at once.
   */
  private _picker(
    id: string,
    label: string,
    items: PickerItem[],
    value: string | undefined,
    onPick: (code: string) => void,
  ): TemplateResult {
    const open = this._open === id;
    const q = this._query.trim().toLowerCase();
    const rank = (x: PickerItem) => {
      const s = ` ${x.search}`.toLowerCase();
      return s.includes(` ${q}`) ? 0 : s.includes(q) ? 1 : 2;
    };
    const list = open ? items.filter((x) => rank(x) < 2).sort((a, b) => rank(a) - rank(b)) : [];
    const active = Math.min(this._active, list.length - 1);
    const selected = items.find((x) => x.code === value);
    const pick = (x?: PickerItem) => {
      if (x && x.code !== value) onPick(x.code);
      this._open = '';
      this._query = '';
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        if (!open) this._open = id;
        else this._active = Math.max(0, Math.min(list.length - 1, active + (e.key === 'ArrowDown' ? 1 : -1)));
        // The long lists scroll: keep the active option in sight.
        this.updateComplete.then(() =>
          this.renderRoot
            .querySelector(`#${id}-list [aria-selected=true]`)
            ?.scrollIntoView({ block: 'nearest' }),
        );
      } else if (e.key === 'Enter' && open) {
        e.preventDefault();
        pick(list[active]);
      } else if (e.key === 'Escape' && open) {
        e.stopPropagation();
        pick();
      }
    };
    return this._field(
      id,
      label,
      html`<div class="combo-input">
        ${selected?.icon ?? nothing}
        <input
          id=${id}
          role="combobox"
          autocomplete="off"
          aria-autocomplete="list"
          aria-controls="${id}-list"
          aria-expanded=${String(open)}
          aria-activedescendant=${list[active] ? `${id}-${active}` : nothing}
          .value=${open ? this._query : (selected?.text ?? '')}
          @input=${(e: Event) => {
            this._query = (e.target as HTMLInputElement).value;
            this._open = id;
            this._active = 0;
          }}
          @click=${() => {
            this._open = open ? '' : id;
            this._active = 0;
          }}
          @keydown=${onKey}
          @focus=${(e: Event) => (e.target as HTMLInputElement).select()}
          @blur=${() => pick()}
        />
      </div>
      <ul id="${id}-list" role="listbox" aria-label=${label} ?hidden=${!list.length}>
        ${list.map(
          (x, i) => html`<li
            id="${id}-${i}"
            role="option"
            aria-selected=${String(i === active)}
            @mousedown=${(e: Event) => e.preventDefault()}
            @click=${() => pick(x)}
          >
            ${x.icon ?? nothing} ${x.body}
          </li>`,
        )}
      </ul>`,
    );
  }

  /**
   * The ramp pickers' entries for a catalog in the locale, made once rather than on every render: the quote's
   * age re-renders each second, and naming and sorting some 250 countries is not free.
   */
  private _pickerItems(c: Catalog): [Catalog, PickerItem[], PickerItem[], PickerItem[]] {
    const loc = this._loc;
    if (this._items?.[0] !== c)
      this._items = [
        c,
        localNames(c.countries, loc, 'region').map(({ code, name }) => ({
          code,
          text: name,
          search: `${code} ${name}`,
          icon: html`<i class="flag" aria-hidden="true">${flag(code)}</i>`,
          body: name,
        })),
        localNames(c.fiats, loc, 'currency').map(({ code, name }) => ({
          code,
          text: `${code} · ${name}`,
          search: `${code} ${name}`,
          body: html`<b>${code}</b> ${name}`,
        })),
        // The upstream lists most coins without an image: a monogram keeps the list scannable.
        c.cryptos.map((x) => ({
          code: x.code,
          text: `${x.symbol} · ${x.networkName}`,
          search: `${x.code} ${x.symbol} ${x.name} ${x.networkName}`,
          icon: x.icon
            ? html`<img src=${x.icon} alt="" width="20" height="20" />`
            : html`<i class="ico" aria-hidden="true">${x.symbol.slice(0, 1)}</i>`,
          body: html`<b>${x.symbol}</b> ${x.name} <span class="net">${x.networkName}</span>`,
        })),
      ];
    return this._items;
  }

  private _renderQuote(crypto: Crypto | undefined): TemplateResult {
    const q = this._quotes;
    const quote = q.quote;
    const err = this._limitError() ? undefined : q.error;
    const row = (key: MessageKey, value: string) =>
      html`<div><dt>${this._t(key)}</dt><dd>${value}</dd></div>`;
    const fee = (v: string) => (quote ? this._money(v, quote.fees.currency) : '');
    const symbol = crypto?.symbol ?? quote?.crypto.currency ?? '';
    return html`<div part="quote" class="quote" aria-busy=${String(q.pending)}>
      <dl aria-live="polite" aria-atomic="true">
        ${
          quote
            ? [
                row('rate', `1 ${symbol} = ${this._money(quote.rate, quote.fiat.currency)}`),
                row('processing', fee(quote.fees.processing)),
                row('network', fee(quote.fees.network)),
                row('markup', fee(quote.fees.markup)),
                row('total', this._total(quote, symbol)),
              ]
            : nothing
        }
      </dl>
      ${quote ? html`<p class="fresh">${this._t('updated', formatAgo((Date.now() - q.receivedAt) / 1000, this._loc))}</p>` : nothing}
      ${!quote && q.pending ? html`<div class="skeleton"><i></i><i></i></div>` : nothing}
      ${err ? this._error(err, () => q.retry()) : nothing}
    </div>`;
  }

  /** What goes in and what comes out: buy pays fiat for crypto, sell sends crypto for fiat. */
  private _total(quote: Quote, symbol: string): string {
    const fiat = `${quote.estimate ? '≈ ' : ''}${this._money(quote.fiat.total, quote.fiat.currency)}`;
    const crypto = formatCrypto(quote.crypto.amount, symbol, this._loc);
    return quote.side === 'sell' ? `${crypto} → ${fiat}` : `${fiat} → ${crypto}`;
  }

  private _renderPay(p: Product): TemplateResult {
    const order = this._order;
    const outcome = this._outcome ?? order?.status;
    const retry = outcome === 'expired' || outcome === 'failed';
    return html`<form part="form" @submit=${this._onPay}>
      <div class="product">
        ${p.image ? html`<img src=${p.image} alt="" width="56" height="56" />` : nothing}
        <div>
          <p class="name">${p.name}</p>
          ${p.description ? html`<p class="desc">${p.description}</p>` : nothing}
        </div>
        <p class="price">${this._money(p.price, p.currency)}</p>
      </div>
      ${
        order
          ? html`<div part="status" class="status ${outcome}" role="status">
              <p>${this._t(outcome === 'awaiting_payment' || !outcome ? 'pending' : (outcome as MessageKey))}</p>
              ${retry ? html`<button type="button" @click=${this._again}>${this._t('retry')}</button>` : nothing}
            </div>`
          : html`${this._field('name', this._t('name'), html`<input id="name" name="name" autocomplete="name" />`)}
              ${this._field(
                'email',
                this._t('email'),
                html`<input id="email" name="email" type="email" autocomplete="email" />`,
              )}
              ${this._actionError ? this._error(this._actionError) : nothing}
              <button part="button" class="primary" ?disabled=${this._busy}>${this._t('payCrypto')}</button>`
      }
    </form>`;
  }

  private _renderDeposit(c: Catalog): TemplateResult {
    const a = this._address.value;
    if (!c.chains.length) return html`<p class="empty" role="status">${this._t('noChain')}</p>`;
    return html`<div part="form" class="form">
      ${this._picker(
        'chain',
        this._t('chain'),
        c.chains.map((x) => ({ code: x.id, text: x.name, search: `${x.id} ${x.name}`, body: x.name })),
        this._chainId,
        (v) => {
          this._chain = v;
        },
      )}
      ${
        this._failed(this._address) ??
        (!a || this._address.status === TaskStatus.PENDING
          ? this._skeleton()
          : html`<div class="deposit">
              ${
                /^\s*<svg[\s>]/.test(a.qrSvg)
                  ? html`<img class="qr" src="data:image/svg+xml;charset=utf-8,${encodeURIComponent(a.qrSvg)}" alt=${this._t('qr')} width="176" height="176" />`
                  : nothing
              }
              ${this._field(
                'address',
                this._t('address'),
                html`<div class="copy">
                  <input id="address" readonly .value=${a.address} />
                  <button type="button" part="button" @click=${() => this._copy(a.address)}>${this._t('copy')}</button>
                </div>`,
              )}
              ${a.memo ? this._field('memo', this._t('memo'), html`<input id="memo" readonly .value=${a.memo} />`) : nothing}
              ${a.currencies.length ? html`<p class="fresh">${this._t('accepts', a.currencies.join(', '))}</p>` : nothing}
              <p class="sr" role="status">${this._copied ? this._t('copied') : ''}</p>
            </div>`)
      }
    </div>`;
  }

  private _renderFrame(): TemplateResult | typeof nothing {
    const f = this._frame;
    if (!f.url) return nothing;
    const frame = html`<iframe
        part="frame"
        src=${f.url}
        title=${this._t('checkout')}
        allow="payment; clipboard-write; camera"
        @load=${f.onLoad}
      ></iframe>
      ${
        f.state === 'fallback'
          ? html`<p class="fallback"><a href=${f.url} target="_blank" rel="noopener">${this._t('newTab')}</a></p>`
          : nothing
      }`;
    if (f.display === 'inline') return html`<div class="frame">${frame}</div>`;
    return html`<dialog part="dialog" aria-label=${this._t('checkout')} @close=${this._onDialogClose}>
      <form method="dialog" class="bar">
        <button class="close" autofocus aria-label=${this._t('close')}>×</button>
      </form>
      ${frame}
    </dialog>`;
  }
}
