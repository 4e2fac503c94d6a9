import { TaskStatus } from '@lit/task';
import {
  adoptStyles,
  type CSSResultGroup,
  type CSSResultOrNative,
  html,
  LitElement,
  nothing,
  type PropertyValues,
  type TemplateResult,
} from 'lit';
import { type ApiError, toApiError } from './api/client.ts';
import { CatalogController } from './controllers/catalog-controller.ts';
import { type HeadStart, headStart } from './controllers/head-start.ts';
import { styles } from './crypto-checkout.styles.ts';
import {
  type CheckoutCompleteDetail,
  CheckoutErrorEvent,
  type CheckoutMode,
  type CheckoutReadyDetail,
  CheckoutReadyEvent,
} from './events.ts';
import type { Display, FrameController } from './frame/frame-controller.ts';
import { idle } from './internal/idle.ts';
import { loadLanguage } from './internal/language-loading.ts';
import { loadError, loadOnce } from './internal/load-once.ts';
import { decimalSeparator, validLocale } from './internal/locale.ts';
import { errorKey, languageFor, languageOf, msg, OVERRIDES } from './internal/messages.ts';
import type { PartialTranslation } from './internal/translation.ts';
import { DEFAULT_MODE } from './modes.ts';
import type { QuoteController } from './ramp/quote-controller.ts';
import { errorBox, skeleton } from './view/parts.ts';
import type { View, ViewContext } from './view/view.ts';
import { type ViewClass, views } from './view/views.ts';

type Theme = 'light' | 'dark' | 'auto';

const flatStyles = (styles: CSSResultGroup | undefined): CSSResultOrNative[] =>
  Array.isArray(styles) ? styles.flatMap(flatStyles) : styles ? [styles as CSSResultOrNative] : [];

/**
 * An embeddable crypto checkout: buy or sell crypto through a ramp, pay for a product with crypto, or show a
 * customer's permanent deposit address. It talks only to the merchant's backend (`api`) and never holds a key.
 *
 * A script that runs after the element's (a module script, an app's mount) may come after `checkout-ready`: it
 * reads `readyState`, or awaits `ready`, once the tag is defined (`await customElements.whenDefined(…)`).
 *
 * @summary Buy, sell, pay or deposit crypto, with one element.
 *
 * @fires {CheckoutReadyEvent} checkout-ready - The catalog or product has loaded.
 * @fires {CheckoutQuoteEvent} checkout-quote - A new quote is shown; `detail` is the backend's quote.
 * @fires {CheckoutOrderEvent} checkout-order - An order or ramp session was created; its page is being shown.
 * @fires {CheckoutStatusEvent} checkout-status - The order's status changed.
 * @fires {CheckoutCompleteEvent} checkout-complete - The checkout ended; cancelable (stays instead of going to `return-url`).
 * @fires {CheckoutErrorEvent} checkout-error - Something failed: `{ code, message, retryable }`.
 * @fires {CheckoutCloseEvent} checkout-close - The modal or the inline ramp page was closed (by the shopper, or the page asked).
 *
 * @csspart base - The wrapper of everything.
 * @csspart form - The form of the current mode.
 * @csspart quote - The quote: rate, fees, total and freshness.
 * @csspart button - The main action button.
 * @csspart status - The order status and outcome.
 * @csspart settlement - Pay: the money beside the status (an underpayment's rest and where to send it, an overpayment's excess, a refund's claim link).
 * @csspart time-left - Pay: the time left to pay the rest of an underpaid order, counting down.
 * @csspart address - Pay: the address to send the rest to, when the merchant gave one.
 * @csspart link - Pay: the link to a refund's claim page.
 * @csspart frame - The iframe showing the payment or ramp page.
 * @csspart dialog - The modal dialog around the frame.
 * @csspart dialog-title - The modal's title.
 * @csspart switch - The way out of a dead end: another currency or country that has a method.
 * @csspart summary - Buy, sell: the one-line summary the form collapses into while the ramp page is open inline, with "Change" (which closes that page and brings the form back).
 *
 * @cssprop [--checkout-accent=#4f46e5] - Buttons, focus rings and selection.
 * @cssprop [--checkout-radius=10px] - Corner radius.
 * @cssprop [--checkout-font-family=system-ui, sans-serif] - Font.
 * @cssprop [--checkout-surface=#fff] - Background (dark theme: #18181b).
 * @cssprop [--checkout-text=#18181b] - Text colour (dark theme: #f4f4f5).
 * @cssprop [--checkout-danger=#b42318] - Errors and limit messages (dark theme: #ff9b8f).
 * @cssprop [--checkout-success=#0f7b4b] - A paid status (dark theme: #5fd39b).
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
    translations: { type: Object },
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
  /** Initial fiat amount, a decimal string (buy, sell): what the shopper pays (buy) or receives (sell), fees inside. */
  amount = '';
  /** ISO country code; the backend guesses it when empty. Updated when the shopper picks one. One the ramp does not serve, or the backend refuses (`checkout-error` `VALIDATION_FAILED`), is named with the nearest served country as a one-click switch. */
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
  /**
   * Messages of the page's own, by language: corrections of a shipped language or a language of its own
   * (`{ "de": { "ramp": { "continue": "Weiter" } }, "ko": { … } }`, each block as in a language file). What a
   * language's table leaves out comes from its shipped table, then English. The attribute takes it as JSON. One
   * table per language serves the page: the last element to set a language's sets it for all.
   */
  translations?: Record<string, PartialTranslation>;

  /** The language the element speaks: `locale`'s, if it has a table (shipped or added), else `en`. */
  get language(): string {
    return languageOf(this._loc);
  }

  /** The view of `mode`, once its code has loaded. */
  private _view?: View;
  /** The view classes loaded so far, by mode: a switch back needs no second load. */
  private _viewClasses: Partial<Record<CheckoutMode, ViewClass>> = {};
  /** The mode whose view is loading or shown. */
  private _viewMode?: CheckoutMode;
  /** Loading the view's code failed (the network); the shopper can try again. */
  private _viewFailed?: ApiError;
  /** A catalog arrived before the view's code or the locale's words: announced once both are there to show it. */
  private _pendingReady?: CheckoutReadyDetail;
  /** What the last `checkout-ready` said, while the form it announced shows. */
  private _readyDetail?: CheckoutReadyDetail;

  /**
   * `'ready'` once the shopper sees the form (`checkout-ready` has fired), `'loading'` before that and while
   * another mode's view loads.
   */
  get readyState(): 'loading' | 'ready' {
    return this._readyDetail ? 'ready' : 'loading';
  }

  /**
   * Resolves with `checkout-ready`'s detail: at once when the form shows already, else at the next
   * `checkout-ready` (a failure meanwhile is a `checkout-error`, and the promise waits for the retry).
   */
  get ready(): Promise<CheckoutReadyDetail> {
    return new Promise((resolve) =>
      this._readyDetail
        ? resolve(this._readyDetail)
        : this.addEventListener('checkout-ready', (e) => resolve(e.detail), { once: true }),
    );
  }
  /** The attempt whose completion was announced (`kind:orderId`). */
  private _completed = '';

  /** The payment or ramp page's controller and rendering: their code loads when first wanted (`_loadFrame`). */
  private _frame?: FrameController;
  private _frameCode?: typeof import('./frame/frame.ts');
  /** CSS of parts loaded later (the frame's), adopted after the element's and the view's. */
  private _partStyles: CSSResultOrNative[] = [];

  private _catalog = new CatalogController(
    this,
    () => ({ api: this.api, country: this.country, wanted: this.mode !== 'pay', mode: this.mode }),
    (c) => this._ready({ mode: this.mode, country: c.country }),
    (e) => this._emitError(e),
  );

  /** Live quotes (buy, sell), made on first use with the class the ramp's code brings (`_quotesOf`). */
  private _quotes?: QuoteController;

  /** The quote the attributes specified, sent before the view's code arrived (taken by the controller). */
  private _head?: HeadStart;

  private _quotesOf(Controller: typeof QuoteController): QuoteController {
    this._quotes ??= new Controller(
      this,
      (q) => this._view?.onQuote(q),
      (e) => this._emitError(e),
      undefined,
      this._head,
    );
    return this._quotes;
  }

  /** What the views get of the element beyond its properties. */
  private _context: ViewContext = (() => {
    const host = this;
    return {
      get loc() {
        return host._loc;
      },
      catalog: this._catalog,
      quotes: (Controller) => this._quotesOf(Controller),
      get frame() {
        return host._frame;
      },
      loadFrame: () => this._loadFrame(),
      open: (url, origins) => {
        this._completed = '';
        // The view awaited `loadFrame` before: the code is here.
        this._frame?.open(url, origins, this.display);
      },
      emitError: (e) => this._emitError(e),
      ready: (detail) => this._ready(detail),
      complete: (detail) => this._complete(detail),
      returnTo: () => (this.returnUrl ? { returnUrl: new URL(this.returnUrl, location.href).href } : {}),
    };
  })();

  /**
   * Loads the frame's code once (the main button calls it beside its request; it is prefetched when the browser is
   * idle after the form shows). A failed load is not kept: the next press tries again.
   */
  private _loadFrame = loadOnce(() =>
    import('./frame/frame.ts').then((code) => {
      this._frameCode = code;
      this._frame = code.createFrame(
        this,
        (e) => this._emitError(e),
        (m) => this._view?.onFrameMessage(m),
        (url) => this._navigate(url),
      );
      this._addStyles(code.frameStyles);
      return this._frame;
    }),
  );

  /** Sends the whole page to `url`. */
  protected _navigate(url: string): void {
    location.assign(url);
  }

  /** The locale last worked out, and what it came from (validating a tag on every string costs). */
  private _locFrom?: string;
  private _locTo = 'en';

  private get _loc(): string {
    // Optional chaining keeps a server-side render (no document) working.
    const from = this.locale || globalThis.document?.documentElement.lang || globalThis.navigator?.language;
    if (from !== this._locFrom) {
      this._locFrom = from;
      this._locTo = validLocale(from);
    }
    return this._locTo;
  }

  private _emitError(e: unknown): void {
    const { code, retryable } = toApiError(e);
    this.dispatchEvent(new CheckoutErrorEvent({ code, message: msg(this._loc, errorKey(code)), retryable }));
  }

  /** The locale's messages while they load (only a language other than English is loaded, once a page). */
  private _language?: Promise<void>;
  /** A view has been shown. */
  private _shown = false;

  override willUpdate(changed: PropertyValues<this>): void {
    Object.assign(OVERRIDES, this.translations);
    // Asked only while none is loading: a second load's failure would reach no one.
    const loading = this._language ? undefined : loadLanguage(this._loc);
    if (loading) {
      // Offline, the English the element already has; a refused file is said (the shopper sees the English).
      const done = loading.then((refused) => {
        if (refused) this._emitError(refused);
        if (this._language === done) this._language = undefined;
        this.requestUpdate();
        // The form was ready before its words: it is announced now, in the language it shows in.
        this._ready();
      });
      this._language = done;
    }
    if (this.mode !== this._viewMode) this._showMode(this.mode);
    if (this._view) this._view.willUpdate(changed);
    // Before the view's code: the quote the attributes fully specify leaves beside the catalog (head-start.ts).
    else if (!this._head && !this._quotes) this._head = headStart(this);
  }

  /** Resolves once the element shows its locale's words too. */
  protected override async getUpdateComplete(): Promise<boolean> {
    let result = await super.getUpdateComplete();
    while (this._language) {
      await this._language;
      result = await super.getUpdateComplete();
    }
    return result;
  }

  override firstUpdated(): void {
    // The first requests are out: ready the browser's number data (the first Intl formatter of a page, which
    // costs: see define.ts) while they fly rather than once they are back, when the answers are waiting to be
    // shown. Next to nothing when define.ts did it while the page was idle.
    setTimeout(() => decimalSeparator(this._loc));
  }

  /** Another mode abandons the payment in progress (its status stream included) and shows that mode's view. */
  private _showMode(mode: CheckoutMode): void {
    this._viewMode = mode;
    this._viewFailed = undefined;
    this._pendingReady = this._readyDetail = undefined;
    if (this._view) {
      this._view.dispose();
      this._view = undefined;
      this._frame?.close();
    }
    const loaded = this._viewClasses[mode];
    if (loaded) {
      this._setView(loaded);
      return;
    }
    const load = views[mode] ?? views[DEFAULT_MODE];
    load().then(
      ({ default: View }) => {
        this._viewClasses[mode] = View;
        if (this._viewMode !== mode) return;
        this._setView(View);
        this.requestUpdate();
        this._ready();
      },
      (e) => {
        if (this._viewMode !== mode) return;
        this._viewFailed = loadError(e);
        this._emitError(this._viewFailed);
        this.requestUpdate();
      },
    );
  }

  /** Shows a view: its CSS joins the element's (the element's own stays first). */
  private _setView(View: ViewClass): void {
    this._view = new View(this, this._context);
    this._adoptStyles();
  }

  /** Adopts the CSS of a part loaded later (the frame, the picker's list), once. */
  _addStyles(styles: CSSResultOrNative): void {
    if (this._partStyles.includes(styles)) return;
    this._partStyles.push(styles);
    this._adoptStyles();
  }

  /** The element's CSS, then the view's, then that of the parts loaded since (the frame's). */
  private _adoptStyles(): void {
    const own = (this.constructor as typeof CryptoCheckout).elementStyles;
    const view = this._view?.constructor as ViewClass | undefined;
    if (this.shadowRoot)
      adoptStyles(this.shadowRoot, [...own, ...flatStyles(view?.styles), ...this._partStyles]);
  }

  /**
   * `checkout-ready` means the shopper sees the form: the data, the view's code and the locale's words (or their
   * failure: English) are all in, so `language` says what the form shows. Without `detail`: the one held back, if
   * any, now that what it waited for is in.
   */
  private _ready(detail = this._pendingReady): void {
    this._pendingReady = this._view && !this._language ? undefined : detail;
    if (!detail || this._pendingReady) return;
    // Each caller's detail is its own object.
    detail.language = this.language;
    this._readyDetail = detail;
    this.dispatchEvent(new CheckoutReadyEvent(detail));
    // The form shows: the frame's code comes while the shopper reads it, so the main button opens at once.
    if (detail.mode !== 'deposit')
      idle(() => {
        this._loadFrame().catch(() => {});
        this._view?.prefetch();
      });
  }

  private _complete(detail: CheckoutCompleteDetail): void {
    const once = `${detail.kind}:${detail.orderId ?? ''}`;
    if (this._completed === once) return;
    this._completed = once;
    // The checkout ends through its page: the frame's code (which says so) is here already.
    this._loadFrame().then(
      (frame) => this._frameCode?.complete(this, frame, detail, (url) => this._navigate(url)),
      () => {},
    );
  }

  // ---- rendering ----

  override render(): TemplateResult {
    // The first view shows in the shopper's language; a later switch of language shows English meanwhile.
    const view = this._view && (!this._language || this._shown) ? this._view : undefined;
    if (view) this._shown = true;
    // `lang` says the language the words are in, for screen readers too: the locale once its language has loaded,
    // English before that and where it could not load.
    return html`<div part="base" class="base ${this.theme}" lang=${languageFor(this._loc) ? this._loc : 'en'}>
      ${view ? view.render() : this._renderLoading()}
      ${this._renderFrame()}
    </div>`;
  }

  /**
   * Before the view's code is here: a skeleton; or what failed meanwhile (the view's code, the catalog) with a
   * way to try again.
   */
  private _renderLoading(): TemplateResult {
    if (this._viewFailed) return errorBox(this._loc, this._viewFailed, () => this._showMode(this.mode));
    const c = this._catalog;
    if (c.status === TaskStatus.ERROR) return errorBox(this._loc, c.error, () => c.run(), c.alwaysRetry);
    return skeleton(this._loc);
  }

  private _renderFrame(): TemplateResult | typeof nothing {
    const f = this._frame;
    if (!f || !this._frameCode) return nothing;
    return this._frameCode.renderFrame(this, f, this._loc, this._view?.frameTitle());
  }
}
