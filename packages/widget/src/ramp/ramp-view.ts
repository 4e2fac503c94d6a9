/**
 * What buy and sell share: the catalog's pickers (country, currency, crypto), the methods, the two amount
 * fields that fill each other from live quotes, the quote itself, and Continue, which signs a ramp session (what
 * follows, its page and the summary line above it, is ramp-session.ts, loaded with the frame's code).
 * `BuyView` and `SellView` say which side they are and what each adds.
 */
import { TaskStatus } from '@lit/task';
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { type ApiError, createRampSession, toApiError } from '../api/client.ts';
import type { Catalog, Crypto, Method, Quote, Side } from '../api/types.ts';
import type { FrameMessage } from '../frame/frame-controller.ts';
import { loadOnce } from '../internal/load-once.ts';
import type { Args, MessageKey } from '../internal/messages.ts';
import { Picker } from '../picker/picker.ts';
import type { PickerItem } from '../picker/picker-state.ts';
import { field } from '../view/parts.ts';
import { type CheckoutHost, View, type ViewContext } from '../view/view.ts';
import { flagIcon } from './flag.ts';
import {
  formatAgo,
  formatCrypto,
  formatPercent,
  isolated,
  localNames,
  parseAmount,
  toInputValue,
} from './format.ts';
import { checkLimits, type LimitBreach, limitRange, type Terms, termsOf } from './limits.ts';
import { QuoteController, type QuoteRequest } from './quote-controller.ts';
import { CheckoutQuoteEvent } from './quote-event.ts';
import { type RampKey, rampMessages } from './ramp.messages.ts';
import { rampStyles } from './ramp.styles.ts';
import type { RampSession, Summary } from './session/ramp-session.ts';

/** The effective choices: what the shopper picked, else the catalog's defaults. */
export interface Selection {
  fiat: string;
  crypto: Crypto | undefined;
  methods: Method[];
  method: Method | undefined;
}

/** The backend's answer to an amount outside the method's limits (its `details` carry the limits). */
const isLimit = (e?: ApiError): e is ApiError =>
  e?.code === 'AMOUNT_TOO_LOW' || e?.code === 'AMOUNT_TOO_HIGH';

/** Whether the ramp serves the catalog's country (a catalog may come for one it does not, or one it refused). */
const isServed = (c: Catalog) => c.countries.some((x) => x.code === c.country);

/** More methods than this collapse into a picker (the default first), so a phone still sees the quote. */
export const MAX_METHOD_RADIOS = 4;

export abstract class RampView extends View {
  static override styles = rampStyles;

  abstract readonly side: Side;

  protected override t(key: RampKey | MessageKey, args?: Args): string {
    return rampMessages(this._ctx.loc, key, args);
  }

  /** An amount, isolated where it would read right to left (`isolated`): the ramp joins amounts in one line. */
  protected override money(amount: string, currency: string): string {
    return isolated(super.money(amount, currency), this._ctx.loc);
  }

  protected _fiatText = '';
  protected _cryptoText = '';
  protected _input: 'fiat' | 'crypto' = 'fiat';
  /** The shopper typed an amount since the last update: only typing waits for a pause. */
  private _typed = false;
  /** The limit breach or invalid amount found before any request. */
  private _amountIssue?: LimitBreach | 'invalid';
  protected _busy = false;
  protected _actionError?: ApiError;
  /** After Continue (ramp-session.ts, loaded with the frame's code): the session's page, summary and outcome. */
  private _session?: RampSession;
  /** The locale the amount fields' texts are written in. */
  private _textLoc = '';
  /**
   * The limits the backend stated when it refused an amount, by `method currency`, for the catalog they came
   * with. They are the truth: a catalog's converted limits may use a rough rate the backend has since replaced
   * with the exact one its quotes taught it, and the method line must not show another minimum than the refusal.
   */
  private _stated = new Map<string, Pick<Terms, 'min' | 'max' | 'currency' | 'converted'>>();
  private _statedFor?: Catalog;
  /** The pickers' entries (countries, currencies, cryptos) for the catalog and locale they were made for. */
  private _items?: [Catalog, string, PickerItem[], PickerItem[], PickerItem[]];

  private _country = new Picker(this._host, 'country');
  private _currency = new Picker(this._host, 'currency');
  private _crypto = new Picker(this._host, 'crypto-search');
  private _methodPicker = new Picker(this._host, 'method');

  readonly quotes = this._ctx.quotes(QuoteController);

  constructor(host: CheckoutHost, ctx: ViewContext) {
    super(host, ctx);
    if (host.amount) this._fiatText = toInputValue(host.amount, ctx.loc);
  }

  /** The methods of this side in the catalog. */
  protected abstract _methodsOf(c: Catalog): Method[];
  /** The method the shopper or the page picked (the `payment-method` or `payout-method` property). */
  protected abstract get _pickedMethod(): string;
  protected abstract set _pickedMethod(id: string);
  /** The catalog's default method of this side. */
  protected abstract _defaultMethod(c: Catalog): string | null;
  /** What the side asks for beyond the amounts (buy: the wallet address). */
  protected _extraFields(): TemplateResult | typeof nothing {
    return nothing;
  }
  /** What the side adds to the ramp session, or undefined to stop (it said why). */
  protected _sessionExtras(): Record<string, string> | undefined {
    return {};
  }

  protected get _catalog() {
    return this._ctx.catalog;
  }

  _selection(c: Catalog): Selection {
    const fiat = c.fiats.some((f) => f.code === this._host.fiat) ? this._host.fiat : c.defaults.fiat;
    const find = (code: string) => c.cryptos.find((x) => x.code === code || x.symbol === code);
    const crypto = find(this._host.crypto) ?? find(c.defaults.crypto) ?? c.cryptos[0];
    const methods = this._methodsOf(c).filter((m) => !m.currencies.length || m.currencies.includes(fiat));
    const byId = (id: string | null) => methods.find((m) => m.id === id);
    const method =
      byId(this._pickedMethod) ??
      byId(this._defaultMethod(c)) ??
      methods.find((m) => m.isDefault) ??
      methods[0];
    return { fiat, crypto, methods, method };
  }

  override willUpdate(changed: PropertyValues): void {
    const host = this._host;
    // After a locale switch the amounts are shown in the new locale's way, except the one being typed in.
    const loc = this._ctx.loc;
    const from = this._textLoc;
    if (from && loc !== from) {
      const typing = (host.renderRoot as ShadowRoot).activeElement?.id;
      const again = (id: string, text: string) => {
        const v = id !== typing && parseAmount(text, from);
        return v ? toInputValue(v, loc) : text;
      };
      this._fiatText = again('fiat', this._fiatText);
      this._cryptoText = again('crypto', this._cryptoText);
    }
    this._textLoc = loc;
    if (changed.has('amount') && host.hasUpdated) {
      this._fiatText = host.amount ? toInputValue(host.amount, loc) : '';
      this._input = 'fiat';
    }
    // The ramp page has its own quote: none is asked (nor announced) here while it is open inline.
    if (this._session?.collapsed) {
      this.quotes.set(undefined);
      return;
    }
    // The quote request follows the current choices; the controller ignores a request it already has.
    // Before the catalog, a request the attributes fully specify flies beside it and shows once it confirms.
    this._amountIssue = undefined;
    const request = this._quoteRequest();
    // No quote for what was typed (empty, invalid, out of limits): the other field must not show an old one.
    if (!request) {
      if (this._input === 'fiat') this._cryptoText = '';
      else this._fiatText = '';
    }
    this.quotes.set(request, this._typed, !this._catalog.value);
    // Continue's refusal of the amount is about the amount typed then.
    if (this._typed && isLimit(this._actionError)) this._actionError = undefined;
    this._typed = false;
    // The quote failed (offline, server down, the amount outside the limits): the other field must not keep the
    // amount of an older quote.
    if (this.quotes.error) {
      if (this._input === 'fiat') this._cryptoText = '';
      else this._fiatText = '';
    }
    this._noteLimits();
  }

  /** Keeps the limits of the backend's latest refusal for the method line (see `_stated`). */
  private _noteLimits(): void {
    const c = this._catalog.value;
    if (!c) return;
    if (this._statedFor !== c) {
      this._stated.clear();
      this._statedFor = c;
    }
    const d = this._limitError()?.details;
    const { method, fiat } = this._selection(c);
    if (method && d?.currency === fiat)
      this._stated.set(`${method.id} ${fiat}`, {
        min: d.min ?? null,
        max: d.max ?? null,
        currency: fiat,
        converted: fiat !== 'EUR',
      });
  }

  private _quoteRequest(): QuoteRequest | undefined {
    const host = this._host;
    const c = this._catalog.value;
    const sell = this.side === 'sell';
    // The catalog held is the previous country's, or its country is not served: no quote leaves for it.
    if (c && (this._catalog.isStale || !isServed(c))) return undefined;
    // With the catalog: the shopper's effective choices (checked against its limits); without: the attributes.
    const s = c && this._selection(c);
    const fiat = s ? s.fiat : host.fiat;
    const crypto = s ? s.crypto?.code : host.crypto;
    const method = s ? s.method?.id : this._pickedMethod;
    const country = c ? c.country : host.country;
    const byFiat = this._input === 'fiat';
    const text = byFiat ? this._fiatText : this._cryptoText;
    const amount = parseAmount(text, this._ctx.loc);
    if (!amount || !crypto || !method || !fiat || !country) {
      if (text.trim() && !amount) this._amountIssue = 'invalid';
      return undefined;
    }
    if (s && byFiat) this._amountIssue = checkLimits(s.method, fiat, amount) ?? undefined;
    if (this._amountIssue) return undefined;
    return {
      api: host.api,
      side: this.side,
      body: {
        [sell ? 'payoutMethod' : 'paymentMethod']: method,
        country,
        fiat,
        crypto,
        [byFiat ? 'fiatAmount' : 'cryptoAmount']: amount,
      },
    };
  }

  override dispose(): void {
    super.dispose();
    this.quotes.set(undefined);
  }

  override onQuote(q: Quote): void {
    if (q.input === 'fiat') this._cryptoText = toInputValue(q.crypto.amount, this._ctx.loc);
    // The fiat field says what is paid (buy) or received (sell), fees inside: the quote's total.
    else this._fiatText = toInputValue(q.fiat.total, this._ctx.loc);
    this._host.dispatchEvent(new CheckoutQuoteEvent(q));
  }

  /** Continue: the backend signs a ramp session and its page is shown. */
  private async _continue(e: Event): Promise<void> {
    e.preventDefault();
    const host = this._host;
    const c = this._catalog.value;
    const q = this.quotes.quote;
    if (!c || !q || this._busy) return;
    const { method } = this._selection(c);
    const extras = this._sessionExtras();
    if (!extras) return;
    this._busy = true;
    this._actionError = undefined;
    host.requestUpdate();
    // The ramp page's code, and what shows it, load beside the session.
    const framed = Promise.all([this._ctx.loadFrame(), this._loadSession()]);
    framed.catch(() => {}); // awaited once the session is in
    try {
      const s = await createRampSession(host.api, {
        side: this.side,
        method: method?.id,
        country: c.country,
        fiat: q.fiat.currency,
        crypto: q.crypto.currency,
        language: this._ctx.loc,
        // Fees inside: the total the shopper saw; the backend hands the ramp page the amount that gives it.
        ...(q.input === 'fiat' ? { fiatAmount: q.fiat.total } : { cryptoAmount: q.crypto.amount }),
        ...extras,
        ...this._ctx.returnTo(),
      });
      const [, code] = await framed;
      this._session ??= new code.RampSession({
        host,
        ctx: this._ctx,
        side: this.side,
        t: (key) => this.t(key),
        input: () => this._input,
      });
      this._session.open(s, this._summaryOf(c, q.fiat.currency, method));
    } catch (err) {
      this._actionError = toApiError(err);
      this._ctx.emitError(err);
    } finally {
      this._busy = false;
      host.requestUpdate();
    }
  }

  /** Loads the code of what follows Continue, once; a failed load is tried again on the next press. */
  private _loadSession = loadOnce(() => import('./session/ramp-session.ts'));

  override prefetch(): void {
    this._loadSession().catch(() => {});
  }

  override onFrameMessage(m: FrameMessage): void {
    this._session?.onFrameMessage(m);
  }

  /**
   * The backend's AMOUNT_TOO_LOW/HIGH, from the quote or from Continue (the session's amount is checked again):
   * the widget does not check converted limits itself (they are approximate), so these are how the shopper
   * learns them.
   */
  private _limitError(): ApiError | undefined {
    const e = this.quotes.error;
    return isLimit(e) ? e : isLimit(this._actionError) ? this._actionError : undefined;
  }

  /** What is wrong with the amount typed (invalid, or outside the method's limits), or ''. */
  private _amountMessage(): string {
    const issue = this._amountIssue;
    if (issue === 'invalid') return this.t('invalid');
    const e = this._limitError();
    const d = e?.details;
    const low = (issue ?? e)?.code === 'AMOUNT_TOO_LOW';
    const limit = issue ? issue.limit : low ? d?.min : d?.max;
    const currency = issue ? issue.currency : d?.currency;
    if (!limit || !currency) return e ? this.t('eInput') : '';
    // The backend's figure outside EUR was converted from the method's EUR limits: about, as on the method line.
    const about = !issue && currency !== 'EUR' ? '≈ ' : '';
    return this.t(low ? 'min' : 'max', { amount: `${about}${this.money(limit, currency)}` });
  }

  override render(): TemplateResult {
    return this._session?.collapsed
      ? this._session.render()
      : this.loaded(this._catalog, (c) => this._renderForm(c));
  }

  /**
   * What the ramp page is opened for (`€100.00 → 0.00123 BTC`, a sale the other way round; the method; the
   * country): the amounts as the fields show them. The session's code makes the summary line of it.
   */
  private _summaryOf(c: Catalog, fiat: string, method: Method | undefined): Summary {
    const loc = this._ctx.loc;
    const { crypto } = this._selection(c);
    const money = this.money(parseAmount(this._fiatText, loc) || '0', fiat);
    const coins = formatCrypto(parseAmount(this._cryptoText, loc) || '0', crypto?.symbol ?? '', loc);
    return [
      this.side === 'sell' ? [coins, money] : [money, coins],
      method?.name,
      this._regionName(c.country),
    ];
  }

  private _renderForm(c: Catalog): TemplateResult {
    const host = this._host;
    const sell = this.side === 'sell';
    const stale = this._catalog.isStale;
    const { fiat, crypto, methods, method } = this._selection(c);
    const q = this.quotes;
    const message = this._amountMessage();
    // Nothing typed yet: say what Continue waits for (it is off, and the fields only show a placeholder).
    const hint = !message && !this._fiatText.trim() && !this._cryptoText.trim() ? this.t('enterAmount') : '';
    // What the closed fields show; the lists are made when one opens. A country that is not served is still
    // named in its field (the message below says so), not left blank, and never offered in the list.
    const country = stale ? host.country : c.country;
    const lists = () => this._pickerItems(c);
    const [named] = localNames(
      c.fiats.filter((f) => f.code === fiat),
      this._ctx.loc,
      'currency',
    );
    const amount = (which: 'fiat' | 'crypto', key: RampKey, unit: string, value: string) =>
      field(
        which,
        `${this.t(key)} (${unit})`,
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
            host.requestUpdate();
          }}
        />`,
      );
    const fiatField = amount('fiat', sell ? 'get' : 'pay', fiat, this._fiatText);
    const cryptoField = amount('crypto', sell ? 'sell' : 'get', crypto?.symbol ?? '', this._cryptoText);
    const none = this.t('noResults');
    return html`<form part="form" novalidate @submit=${(e: Event) => this._continue(e)} aria-busy=${String(this._catalog.status === TaskStatus.PENDING || stale)}>
      ${this.failed(this._catalog)}
      <div class="row pickers">
        ${this._country.render(
          this.t('country'),
          () => lists()[0],
          this._countryItem(country, this._regionName(country)),
          (v) => this._pickCountry(v),
          none,
        )}
        ${this._currency.render(
          this.t('fiat'),
          () => lists()[1],
          named && this._fiatItem(named),
          (v) => {
            host.fiat = v;
          },
          none,
          c.fiats.length,
        )}
      </div>
      ${this._crypto.render(
        this.t('crypto'),
        () => lists()[2],
        crypto && this._cryptoItem(crypto),
        (v) => {
          host.crypto = v;
        },
        none,
        c.cryptos.length,
      )}
      ${
        !stale && !isServed(c)
          ? this._renderNotServed(c)
          : methods.length
            ? html`${this._renderMethods(c, methods, method, fiat)}
            <div class="row">${sell ? [cryptoField, fiatField] : [fiatField, cryptoField]}</div>
            <p id="amount-msg" class=${hint ? 'hint' : 'msg'} role="alert">${message || hint}</p>
            ${this._renderQuote(crypto)}
            ${this._extraFields()}
            ${this._actionError && this._limitError() !== this._actionError ? this.error(this._actionError) : nothing}
            <button part="button" class="primary" ?disabled=${!q.quote || this._busy} aria-describedby=${hint ? 'amount-msg' : nothing}>${this.t('continue')}</button>
            ${this._session?.status()}`
            : this._renderNoMethod(c, fiat)
      }
    </form>`;
  }

  /**
   * A country the ramp does not serve (an attribute, or one the upstream dropped): say so by name and offer the
   * nearest served one: the region of the element's locale or the browser's languages, else the catalog's default.
   */
  private _renderNotServed(c: Catalog): TemplateResult {
    const served = new Set(c.countries.map((x) => x.code));
    const regions = [this._ctx.loc, ...navigator.languages].map((l) => {
      try {
        return new Intl.Locale(l).maximize().region;
      } catch {
        return undefined;
      }
    });
    const near = [...regions, c.defaults.country].find((r) => r && served.has(r));
    const line = this._catalog.refused
      ? this.t('unknownCountry', { country: c.country })
      : this.t('notServed', { country: this._regionName(c.country) });
    return html`<p class="empty" role="status">${line}</p>
      ${near ? this._wayOut(this.t('useInstead', { choice: this._regionName(near) }), () => this._pickCountry(near)) : nothing}`;
  }

  /** A country's name in the element's locale. */
  private _regionName(code: string): string {
    return localNames([{ code, name: code }], this._ctx.loc, 'region')[0]?.name ?? code;
  }

  /** A one-click way out of a dead end. */
  private _wayOut(label: string, go: () => void): TemplateResult {
    return html`<button type="button" part="switch" @click=${go}>${label}</button>`;
  }

  /** Another country: its catalog's currency and methods, not the last country's. */
  private _pickCountry(code: string): void {
    const host = this._host;
    host.country = code;
    host.fiat = '';
    host.paymentMethod = '';
    host.payoutMethod = '';
  }

  /**
   * No method takes this currency in this country: say so and offer, in one click, the currency that has one
   * (the country's default first), so the shopper is never left without a way on.
   */
  private _renderNoMethod(c: Catalog, fiat: string): TemplateResult {
    const all = this._methodsOf(c);
    const works = (code: string) => all.some((m) => !m.currencies.length || m.currencies.includes(code));
    const codes = [c.defaults.fiat, ...c.fiats.map((f) => f.code)];
    const other = codes.find((code) => code && code !== fiat && works(code));
    return html`<p class="empty" role="status">${this.t('empty')}</p>
      ${
        other
          ? this._wayOut(this.t('useInstead', { choice: other }), () => {
              this._host.fiat = other;
            })
          : nothing
      }`;
  }

  private _renderMethods(
    c: Catalog,
    methods: Method[],
    method: Method | undefined,
    fiat: string,
  ): TemplateResult {
    const legend = this.t(this.side === 'sell' ? 'payoutMethod' : 'paymentMethod');
    const pick = (id: string) => {
      this._pickedMethod = id;
    };
    if (methods.length <= MAX_METHOD_RADIOS)
      return html`<fieldset class="methods">
        <legend>${legend}</legend>
        ${methods.map((m) => this._method(m, m === method, pick, fiat))}
      </fieldset>`;
    // A long list is a picker, the default first: the amount, the quote and Continue stay in sight on a phone.
    const first = this._defaultMethod(c) ?? methods.find((m) => m.isDefault)?.id;
    const sorted = [...methods].sort((a, b) => Number(b.id === first) - Number(a.id === first));
    const item = (m: Method): PickerItem => ({
      code: m.id,
      text: m.name,
      search: `${m.name} ${m.id}`,
      icon: this._methodIcons(m),
      body: html`<span>${m.name}</span><small>${this._methodTerms(m, fiat)}</small>`,
    });
    return html`<div class="methods">
      ${this._methodPicker.render(legend, () => sorted.map(item), method && item(method), pick, this.t('noResults'), sorted.length)}
      ${method ? html`<small class="terms">${this._methodTerms(method, fiat)}</small>` : nothing}
    </div>`;
  }

  private _method(m: Method, checked: boolean, pick: (id: string) => void, fiat: string): TemplateResult {
    return html`<label class="method">
      <input type="radio" name="method" .checked=${checked} @change=${() => pick(m.id)} />
      ${this._methodIcons(m)}
      <span>${m.name}</span>
      <small>${this._methodTerms(m, fiat)}</small>
    </label>`;
  }

  /**
   * A method's logo; `lt`/`dk`: the variants for light and dark surfaces (the upstream's `iconLight` is for dark:
   * docs/upstream.md#payment-methods).
   */
  protected _methodIcons(m: Method): TemplateResult | typeof nothing {
    if (!m.icon) return nothing;
    const img = (src: string, variant: string) =>
      html`<img class=${variant} src=${src} alt="" width="24" height="24" loading="lazy" decoding="async" />`;
    return html`${img(m.icon, m.iconLight ? 'lt' : '')}${m.iconLight ? img(m.iconLight, 'dk') : nothing}`;
  }

  /**
   * Fees and limits in the chosen currency: `1.5% + €0.50 · €10–€5,000`, or `3% + ≈ $0.65 · ≈ $7.80–$27,000`
   * where the backend converted them from EUR (or the one bound a method has); the limits a refusal stated win.
   * Left to right in every language, as every amount is.
   */
  protected _methodTerms(m: Method, fiat: string): TemplateResult {
    const t = termsOf(m, fiat);
    const money = (a: string, c: string) => this.money(a, c);
    const fee = `${t.converted ? '≈ ' : ''}${money(t.fixedFee, t.currency)}`;
    const limits = this._stated.get(`${m.id} ${fiat}`) ?? t;
    return html`<bdi dir="ltr">${formatPercent(m.feePercent, this._ctx.loc)} + ${fee}${limitRange(limits, money)}</bdi>`;
  }

  /**
   * The pickers' entries for a catalog in the locale, made when a list first opens and kept: naming and sorting
   * some 250 countries is not free, and neither the first quote nor the render each second should pay for it.
   */
  private _pickerItems(c: Catalog): [PickerItem[], PickerItem[], PickerItem[]] {
    const loc = this._ctx.loc;
    if (this._items?.[0] !== c || this._items[1] !== loc)
      this._items = [
        c,
        loc,
        localNames(c.countries, loc, 'region').map(({ code, name }) => this._countryItem(code, name)),
        localNames(c.fiats, loc, 'currency').map((f) => this._fiatItem(f)),
        c.cryptos.map((x) => this._cryptoItem(x)),
      ];
    const [, , countries, fiats, cryptos] = this._items;
    return [countries, fiats, cryptos];
  }

  /** A country named in the locale, with its flag (named too beside the closed field, where no text says it). */
  private _countryItem(code: string, name: string): PickerItem {
    const api = this._host.api;
    return {
      code,
      text: name,
      search: `${code} ${name}`,
      icon: flagIcon(api, code, ''),
      fieldIcon: flagIcon(api, code, name),
      body: name,
    };
  }

  /** A currency named in the locale. */
  private _fiatItem({ code, name }: { code: string; name: string }): PickerItem {
    return { code, text: `${code} · ${name}`, search: `${code} ${name}`, body: html`<b>${code}</b> ${name}` };
  }

  /**
   * The upstream lists most coins without an image (docs/upstream.md#supported-currencies): a monogram keeps the
   * list scannable.
   */
  private _cryptoItem(x: Crypto): PickerItem {
    return {
      code: x.code,
      text: `${x.symbol} · ${x.networkName}`,
      search: `${x.code} ${x.symbol} ${x.name} ${x.networkName}`,
      icon: x.icon
        ? html`<img src=${x.icon} alt="" width="20" height="20" />`
        : html`<i class="ico" aria-hidden="true">${x.symbol.slice(0, 1)}</i>`,
      body: html`<b>${x.symbol}</b> ${x.name} <span class="net">${x.networkName}</span>`,
    };
  }

  private _renderQuote(crypto: Crypto | undefined): TemplateResult {
    const q = this.quotes;
    const quote = q.quote;
    const err = isLimit(q.error) ? undefined : q.error;
    const row = (key: RampKey, value: string) =>
      html`<div><dt>${this.t(key)}</dt><dd><bdi dir="ltr">${value}</bdi></dd></div>`;
    const fee = (v: string) => (quote ? this.money(v, quote.fees.currency) : '');
    const symbol = crypto?.symbol ?? quote?.crypto.currency ?? '';
    // "now" as it comes (the first quote does not wait for Intl's first RelativeTimeFormat), then "5 seconds ago".
    const age = (Date.now() - q.receivedAt) / 1000;
    return html`<div part="quote" class="quote" aria-busy=${String(q.pending)}>
      <dl aria-live="polite" aria-atomic="true">
        ${
          quote
            ? [
                row('rate', `1 ${symbol} = ${this.money(quote.rate, quote.fiat.currency)}`),
                row('processing', fee(quote.fees.processing)),
                row('network', fee(quote.fees.network)),
                row('markup', fee(quote.fees.markup)),
                row('total', this._total(quote, symbol)),
              ]
            : nothing
        }
      </dl>
      ${quote ? html`<p class="fresh">${this.t('updated', { age: age < 0.5 ? this.t('now') : formatAgo(age, this._ctx.loc) })}</p>` : nothing}
      ${!quote && q.pending ? html`<div class="skeleton"><i></i><i></i></div>` : nothing}
      ${err ? this.error(err, () => q.retry()) : nothing}
    </div>`;
  }

  /** What goes in and what comes out: buy pays fiat for crypto, sell sends crypto for fiat. */
  private _total(quote: Quote, symbol: string): string {
    const fiat = `${quote.estimate ? '≈ ' : ''}${this.money(quote.fiat.total, quote.fiat.currency)}`;
    const crypto = formatCrypto(quote.crypto.amount, symbol, this._ctx.loc);
    return quote.side === 'sell' ? `${crypto} → ${fiat}` : `${fiat} → ${crypto}`;
  }
}
