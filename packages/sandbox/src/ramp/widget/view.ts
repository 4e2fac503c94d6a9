/**
 * The hosted ramp widget's HTML: the buy and sell flow page and the refusal page. Server-rendered, with its
 * CSS (styles.ts) and a little script (script.ts) inline; the script walks the steps and speaks the
 * SWAPPED_* postMessage protocol (docs/upstream.md#postmessage), plus `SWAPPED_RESIZE` (its height, as the
 * payment page posts it), which the real ramp page may not send.
 */
import { html, raw } from 'hono/html';
import type { RampSession } from '../orders.ts';
import type { BuyQuote, SellQuote } from '../quote-math.ts';
import { WIDGET_SCRIPT } from './script.ts';
import { WIDGET_STYLES } from './styles.ts';

export interface WidgetPageModel {
  session: RampSession;
  /** Root-relative path of the widget's mount, e.g. `/sandbox/ramp`; the page's fetch() calls go under it. */
  prefix: string;
  /** The method the quote uses, for its name and logo. */
  method: { name: string; icon: string };
  quote: BuyQuote | SellQuote | undefined;
  quoteError: string | undefined;
}
const fiatText = (value: number, code: string) => `${value.toFixed(2)} ${code}`;

/** JSON for an inline `<script type="application/json">`: `<` escaped so no value can close the element. */
const inlineJson = (value: unknown) => raw(JSON.stringify(value).replace(/</g, '\\u003c'));

/** The document both pages share: the head with the widget's styles around a page's body. */
const widgetDocument = (lang: string, title: string, body: ReturnType<typeof html>) => html`<!doctype html>
<html lang="${lang}">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title} · Sandbox</title>
    <style>${raw(WIDGET_STYLES)}</style>
  </head>
  <body>
    ${body}
  </body>
</html>`;

export function widgetPage(model: WidgetPageModel) {
  const { session, quote } = model;
  const buy = session.type === 'buy';
  const fiat = session.fiat.iso;
  const symbol = session.crypto.symbol;
  const amountValue = quote
    ? buy
      ? quote.fiat_amount_excl_fees_local
      : quote.crypto_amount
    : ((buy ? session.fiatAmount : session.cryptoAmount) ?? '');
  const config = {
    type: session.type,
    session: session.id,
    prefix: model.prefix,
    fiat,
    symbol,
    email: session.email ?? null,
    redirectUrl: session.redirectUrl ?? null,
    responseUrl: session.responseUrl ?? null,
  };
  const title = buy ? `Buy ${session.crypto.name}` : `Sell ${session.crypto.name}`;
  return widgetDocument(
    session.language.toLowerCase(),
    title,
    html`<main>
      <header>
        <h1>${title}</h1>
        <span class="badge" title="Simulated: no real money moves">Sandbox</span>
      </header>

      <section id="step-EMPTY" aria-label="Amount">
        <form id="amount-form" novalidate>
          <label id="amount-label" for="amount">${buy ? 'You pay' : 'You sell'}</label>
          <div class="field">
            <input id="amount" name="amount" type="number" inputmode="decimal" min="0" step="any"
              value="${amountValue}" ${session.lockAmount ? 'readonly' : ''} data-autofocus
              aria-describedby="error" />
            <span class="unit">${buy ? fiat : symbol}</span>
          </div>
          <label for="receive">You receive</label>
          <output id="receive" class="receive" for="amount" aria-live="polite">${
            quote
              ? buy
                ? `${quote.crypto_amount} ${symbol}`
                : fiatText(quote.fiat_amount_excl_fees_local, fiat)
              : '—'
          }</output>
          <div class="method">
            <img src="${model.prefix}/images/payment/${model.method.icon}.svg" alt="" />
            <span>${buy ? 'Payment method' : 'Payout method'}: ${model.method.name}</span>
          </div>
          <dl>
            <dt>Price</dt><dd id="price">${quote ? `1 ${symbol} = ${fiatText(quote.crypto_unit_price, fiat)}` : '—'}</dd>
            <dt>Processing fee</dt><dd id="fee">${quote ? fiatText(quote.processing_fee, fiat) : '—'}</dd>
            <dt>Markup</dt><dd id="markup">${quote ? fiatText(quote.markup_fiat_value, fiat) : '—'}</dd>
            <dt>Network fee</dt><dd id="network-fee">${
              quote
                ? 'network_fee_local' in quote
                  ? fiatText(quote.network_fee_local, fiat)
                  : `${quote.network_fee} ${symbol}`
                : '—'
            }</dd>
            <dt class="total">${buy ? 'Total charged' : 'Value of the crypto'}</dt>
            <dd class="total" id="total">${quote ? fiatText(quote.fiat_amount_incl_fees_local, fiat) : '—'}</dd>
          </dl>
          <p id="error" class="error" role="alert">${model.quoteError ?? ''}</p>
          <button id="continue" class="primary" type="submit" ${quote ? '' : 'disabled'}>Continue</button>
        </form>
      </section>

      <section id="step-LOGIN_EMAIL" hidden aria-labelledby="email-title">
        <h2 id="email-title">Your email</h2>
        <form id="email-form">
          <label for="email">Email address</label>
          <div class="field">
            <input id="email" name="email" type="email" autocomplete="email" required data-autofocus />
          </div>
          <p class="note">The sandbox sends no email; any address works.</p>
          <button class="primary" type="submit">Continue</button>
        </form>
      </section>

      <section id="step-PAYMENT" hidden aria-labelledby="payment-title">
        <h2 id="payment-title">${buy ? 'Payment' : 'Send your crypto'}</h2>
        ${
          buy
            ? html`<p>Crypto goes to</p>
                <p class="mono">${session.walletAddress ?? ''}</p>
                <p class="note">No card is charged: this button simulates an approved card payment.</p>`
            : html`<p>Send exactly <strong id="deposit-amount"></strong> to</p>
                <p id="deposit-address" class="mono"></p>
                <p id="memo-row" hidden>Memo / destination tag: <span id="deposit-memo" class="mono"></span></p>
                <p class="note">Nothing is watched on-chain: the button below simulates the deposit arriving.</p>`
        }
        <p id="pay-error" class="error" role="alert"></p>
        <button id="pay" class="primary" type="button" data-autofocus>${buy ? 'Pay (simulated card)' : "I've sent the crypto"}</button>
        <button id="cancel" class="secondary" type="button">Cancel order</button>
      </section>

      <section id="step-ORDER_CONFIRMATION" hidden aria-labelledby="result-title" aria-live="polite">
        <h2 id="result-title"></h2>
        <p id="result-text"></p>
        <p id="redirect-note" class="note" hidden>Taking you back to the merchant…</p>
        <button id="close" class="secondary" type="button" data-autofocus>Close</button>
      </section>
    </main>
    <script type="application/json" id="config">${inlineJson(config)}</script>
    <script>${raw(WIDGET_SCRIPT)}</script>`,
  );
}

/** The refusal page (bad signature, bad key, bad parameters); it also tells an embedder through SWAPPED_ERROR. */
export function widgetErrorPage(title: string, message: string) {
  return widgetDocument(
    'en',
    title,
    html`<main role="alert">
      <header><h1>${title}</h1><span class="badge">Sandbox</span></header>
      <p id="message">${message}</p>
      <p class="note">The widget URL must carry <code>apiKey=pk_sandbox_…</code> and, as its last parameter, a
        <code>signature</code>: base64 HMAC-SHA256 with <code>sk_sandbox_…</code> over "?" + the query before it.</p>
    </main>
    <script type="application/json" id="config">${inlineJson({ message })}</script>
    <script>
      if (window.parent !== window) {
        var data = JSON.parse(document.getElementById('config').textContent);
        window.parent.postMessage({ type: 'SWAPPED_ERROR', data: { message: data.message } }, '*');
      }
    </script>`,
  );
}
