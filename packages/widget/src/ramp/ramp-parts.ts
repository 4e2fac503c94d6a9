/**
 * The ramp's parts that buy and sell show around the amounts (ramp-view.ts holds those, the quote request and
 * Continue): the effective choices, the methods as radios or a picker with their terms, the dead ends (a country
 * not served, a currency no method takes) with their way out, the pickers' entries, and the quote's panel.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { ApiError } from '../api/client.ts';
import type { Catalog, Crypto, Method, Quote, Side } from '../api/types.ts';
import type { Args, MessageKey } from '../internal/messages.ts';
import { Picker } from '../picker/picker.ts';
import type { PickerItem } from '../picker/picker-state.ts';
import { View } from '../view/view.ts';
import { flagIcon } from './flag.ts';
import { formatAgo, formatCrypto, formatPercent, isolated, localNames } from './format.ts';
import { limitRange, type Terms, termsOf } from './limits.ts';
import { QuoteController } from './quote-controller.ts';
import { type RampKey, rampMessages } from './ramp.messages.ts';
import { rampStyles } from './ramp.styles.ts';

/** The effective choices: what the shopper picked, else the catalog's defaults. */
export interface Selection {
  fiat: string;
  crypto: Crypto | undefined;
  methods: Method[];
  method: Method | undefined;
}

/** The backend's answer to an amount outside the method's limits (its `details` carry the limits). */
export const isLimit = (e?: ApiError): e is ApiError =>
  e?.code === 'AMOUNT_TOO_LOW' || e?.code === 'AMOUNT_TOO_HIGH';

/** Whether the ramp serves the catalog's country (a catalog may come for one it does not, or one it refused). */
export const isServed = (c: Catalog) => c.countries.some((x) => x.code === c.country);

/** More methods than this collapse into a picker (the default first), so a phone still sees the quote. */
export const MAX_METHOD_RADIOS = 4;

export abstract class RampParts extends View {
  static override styles = rampStyles;

  abstract readonly side: Side;

  /** The methods of this side in the catalog. */
  protected abstract _methodsOf(c: Catalog): Method[];
  /** The method the shopper or the page picked (the `payment-method` or `payout-method` property). */
  protected abstract get _pickedMethod(): string;
  protected abstract set _pickedMethod(id: string);
  /** The catalog's default method of this side. */
  protected abstract _defaultMethod(c: Catalog): string | null;

  protected override t(key: RampKey | MessageKey, args?: Args): string {
    return rampMessages(this._ctx.loc, key, args);
  }

  /** An amount, isolated where it would read right to left (`isolated`): the ramp joins amounts in one line. */
  protected override money(amount: string, currency: string): string {
    return isolated(super.money(amount, currency), this._ctx.loc);
  }

  /**
   * The limits the backend stated when it refused an amount, by `method currency`, for the catalog they came
   * with. They are the truth: a catalog's converted limits may use a rough rate the backend has since replaced
   * with the exact one its quotes taught it, and the method line must not show another minimum than the refusal.
   */
  protected _stated = new Map<string, Pick<Terms, 'min' | 'max' | 'currency' | 'converted'>>();

  /** The pickers' entries (countries, currencies, cryptos) for the catalog and locale they were made for. */
  protected _items?: [Catalog, string, PickerItem[], PickerItem[], PickerItem[]];

  protected _methodPicker = new Picker(this._host, 'method');

  readonly quotes = this._ctx.quotes(QuoteController);

  protected get _catalog() {
    return this._ctx.catalog;
  }

  /**
   * A country the ramp does not serve (an attribute, or one the upstream dropped): say so by name and offer the
   * nearest served one: the region of the element's locale or the browser's languages, else the catalog's default.
   */
  protected _renderNotServed(c: Catalog): TemplateResult {
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
  protected _regionName(code: string): string {
    return localNames([{ code, name: code }], this._ctx.loc, 'region')[0]?.name ?? code;
  }

  /** A one-click way out of a dead end. */
  private _wayOut(label: string, go: () => void): TemplateResult {
    return html`<button type="button" part="switch" @click=${go}>${label}</button>`;
  }

  /** Another country: its catalog's currency and methods, not the last country's. */
  protected _pickCountry(code: string): void {
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
  protected _renderNoMethod(c: Catalog, fiat: string): TemplateResult {
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

  protected _renderMethods(
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
  protected _pickerItems(c: Catalog): [PickerItem[], PickerItem[], PickerItem[]] {
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
  protected _countryItem(code: string, name: string): PickerItem {
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
  protected _fiatItem({ code, name }: { code: string; name: string }): PickerItem {
    return { code, text: `${code} · ${name}`, search: `${code} ${name}`, body: html`<b>${code}</b> ${name}` };
  }

  /**
   * The upstream lists most coins without an image (docs/upstream.md#supported-currencies): a monogram keeps the
   * list scannable.
   */
  protected _cryptoItem(x: Crypto): PickerItem {
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

  protected _renderQuote(crypto: Crypto | undefined): TemplateResult {
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
}
