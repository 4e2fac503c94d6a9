/**
 * What buy and sell share: the catalog's pickers (country, currency, crypto), the two amount fields that fill
 * each other from live quotes, the quote request, and Continue, which signs a ramp session (what
 * follows, its page and the summary line above it, is ramp-session.ts, loaded with the frame's code).
 * The methods, the dead ends and the quote's panel are ramp-parts.ts. `BuyView` and `SellView` say which side
 * they are and what each adds.
 */
import { TaskStatus } from '@lit/task';
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { type ApiError, createRampSession, toApiError } from '../api/client.ts';
import type { Catalog, Method, Quote } from '../api/types.ts';
import type { FrameMessage } from '../frame/frame-controller.ts';
import { loadOnce } from '../internal/load-once.ts';
import { Picker } from '../picker/picker.ts';
import { field } from '../view/parts.ts';
import type { CheckoutHost, ViewContext } from '../view/view.ts';
import { formatCrypto, localNames, parseAmount, toInputValue } from './format.ts';
import { checkLimits, type LimitBreach } from './limits.ts';
import type { QuoteRequest } from './quote-controller.ts';
import { CheckoutQuoteEvent } from './quote-event.ts';
import type { RampKey } from './ramp.messages.ts';
import { isLimit, isServed, RampParts } from './ramp-parts.ts';
import type { RampSession, Summary } from './session/ramp-session.ts';

export abstract class RampView extends RampParts {
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
  private _statedFor?: Catalog;

  private _country = new Picker(this._host, 'country');
  private _currency = new Picker(this._host, 'currency');
  private _crypto = new Picker(this._host, 'crypto-search');

  constructor(host: CheckoutHost, ctx: ViewContext) {
    super(host, ctx);
    if (host.amount) this._fiatText = toInputValue(host.amount, ctx.loc);
  }

  /** What the side asks for beyond the amounts (buy: the wallet address). */
  protected _extraFields(): TemplateResult | typeof nothing {
    return nothing;
  }
  /** What the side adds to the ramp session, or undefined to stop (it said why). */
  protected _sessionExtras(): Record<string, string> | undefined {
    return {};
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
}
