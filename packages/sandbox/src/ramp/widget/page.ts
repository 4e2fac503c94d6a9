/**
 * The hosted ramp widget's HTML: the buy and sell flow page and the refusal page. Server-rendered, with inline
 * CSS and a little inline JS that walks the steps and speaks the SWAPPED_* postMessage protocol (facts.md §3.5),
 * plus `SWAPPED_RESIZE` (its height, as the payment page posts it), which the real ramp page may not send.
 */
import { html, raw } from 'hono/html';
import type { RampSession } from '../orders.ts';
import type { BuyQuote, SellQuote } from '../quote-math.ts';

export interface WidgetPageModel {
  session: RampSession;
  /** Root-relative path of the widget's mount, e.g. `/sandbox/ramp`; the page's fetch() calls go under it. */
  prefix: string;
  /** The method the quote uses, for its name and logo. */
  method: { name: string; icon: string };
  quote: BuyQuote | SellQuote | undefined;
  quoteError: string | undefined;
}

const styles = `
:root { color-scheme: light dark; --bg: #f4f5f8; --card: #ffffff; --text: #16181d; --muted: #5b6170;
  --line: #e2e4ea; --accent: #3b4fd8; --accent-text: #ffffff; --danger: #b3261e; --ok: #1d7a4f; }
@media (prefers-color-scheme: dark) { :root { --bg: #101217; --card: #191c23; --text: #eef0f4; --muted: #a3a9b7;
  --line: #2b2f39; --accent: #7d8cff; --accent-text: #0d0f14; --danger: #ff8a80; --ok: #6fd3a0; } }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg);
  color: var(--text); display: flex; justify-content: center; padding: 16px; }
main { width: 100%; max-width: 440px; background: var(--card); border: 1px solid var(--line); border-radius: 16px;
  padding: 20px; box-shadow: 0 8px 24px rgb(0 0 0 / 0.06); }
header { display: flex; align-items: center; justify-content: space-between; margin-bottom: 16px; }
h1 { font-size: 18px; margin: 0; }
h2 { font-size: 16px; margin: 0 0 12px; }
.badge { font-size: 12px; font-weight: 600; padding: 2px 8px; border-radius: 999px; background: #fff3c4; color: #6b4e00; }
label { display: block; font-size: 13px; color: var(--muted); margin-bottom: 4px; }
.field { display: flex; align-items: center; border: 1px solid var(--line); border-radius: 10px; padding: 0 12px;
  margin-bottom: 12px; }
.field input { flex: 1; min-width: 0; border: 0; background: transparent; color: inherit; font: inherit;
  font-size: 20px; padding: 10px 0; }
.field input:focus { outline: none; }
.field:focus-within { border-color: var(--accent); box-shadow: 0 0 0 3px color-mix(in srgb, var(--accent) 25%, transparent); }
.unit { font-weight: 600; color: var(--muted); }
.receive { font-size: 20px; font-weight: 600; margin: 0 0 12px; }
dl { display: grid; grid-template-columns: 1fr auto; gap: 6px 12px; margin: 0 0 16px; font-size: 14px; }
dt { color: var(--muted); } dd { margin: 0; text-align: right; font-variant-numeric: tabular-nums; }
dt.total, dd.total { font-weight: 700; color: var(--text); border-top: 1px solid var(--line); padding-top: 6px; }
.method { display: flex; align-items: center; gap: 8px; margin-bottom: 12px; color: var(--muted); font-size: 14px; }
.method img { width: 40px; height: 25px; }
button { font: inherit; font-weight: 600; border-radius: 10px; padding: 12px 16px; width: 100%; cursor: pointer;
  border: 1px solid transparent; margin-top: 8px; }
button.primary { background: var(--accent); color: var(--accent-text); }
button.secondary { background: transparent; color: var(--text); border-color: var(--line); }
button:disabled { opacity: 0.5; cursor: not-allowed; }
button:focus-visible, input:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.error { color: var(--danger); font-size: 14px; min-height: 1.2em; margin: 0 0 8px; }
.mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; word-break: break-all;
  background: var(--bg); border-radius: 8px; padding: 8px; }
.ok { color: var(--ok); }
.note { color: var(--muted); font-size: 13px; }
@media (prefers-reduced-motion: no-preference) { button { transition: filter 0.15s; } button:hover:not(:disabled) { filter: brightness(1.08); } }
`;

// Plain ES2017 so it runs in every browser that can embed the widget; reads its inputs from #config.
const script = `
(function () {
  var cfg = JSON.parse(document.getElementById('config').textContent);
  var $ = function (id) { return document.getElementById(id); };
  var originOf = function (url) { try { return url ? new URL(url).origin : null; } catch (e) { return null; } };
  // The embedder is not known for sure: the redirect target's origin first, then the referrer, then responseUrl.
  var target = originOf(cfg.redirectUrl) || originOf(document.referrer) || originOf(cfg.responseUrl);
  function post(type, data, sensitive) {
    if (window.parent === window) return;
    var origin = target || (sensitive ? null : '*');
    if (!origin) return;
    var message = data === undefined ? { type: type } : { type: type, data: data };
    window.parent.postMessage(message, origin);
  }
  var order = null;
  var steps = ['EMPTY', 'LOGIN_EMAIL', 'PAYMENT', 'ORDER_CONFIRMATION'];
  function show(step) {
    steps.forEach(function (s) { $('step-' + s).hidden = s !== step; });
    post('SWAPPED_NAVIGATION', { step: step });
    var focus = document.querySelector('#step-' + step + ' [data-autofocus]');
    if (focus) focus.focus();
  }
  function fiat(n) { return Number(n).toFixed(2) + ' ' + cfg.fiat; }
  function crypto(n) { return n + ' ' + cfg.symbol; }
  function render(q) {
    if (cfg.type === 'buy') {
      $('receive').textContent = crypto(q.crypto_amount);
      $('fee').textContent = fiat(q.processing_fee);
      $('network-fee').textContent = fiat(q.network_fee_local);
      $('total').textContent = fiat(q.fiat_amount_incl_fees_local);
      $('pay').textContent = 'Pay ' + fiat(q.fiat_amount_incl_fees_local) + ' (simulated card)';
    } else {
      $('receive').textContent = fiat(q.fiat_amount_excl_fees_local);
      $('fee').textContent = fiat(q.processing_fee);
      $('network-fee').textContent = crypto(q.network_fee);
      $('total').textContent = fiat(q.fiat_amount_incl_fees_local);
    }
    $('price').textContent = '1 ' + cfg.symbol + ' = ' + fiat(q.crypto_unit_price);
    $('markup').textContent = fiat(q.markup_fiat_value);
  }
  function fail(message) {
    $('error').textContent = message;
    $('pay-error').textContent = message;
    post('SWAPPED_ERROR', { message: message });
  }
  function call(path, body) {
    return fetch(cfg.prefix + path, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body || {})
    }).then(function (response) {
      return response.json().catch(function () { return { success: false, message: 'Unexpected answer (' + response.status + ')' }; });
    }).then(function (body) {
      if (!body.success) throw new Error(body.message || 'Request failed');
      return body.data;
    });
  }
  var timer = null;
  function requote(extra) {
    var value = Number($('amount').value);
    var body = extra || {};
    if (!(value > 0)) { $('continue').disabled = true; $('error').textContent = 'Enter an amount'; return; }
    body[cfg.type === 'buy' ? 'fiatAmount' : 'cryptoAmount'] = value;
    return call('/sessions/' + cfg.session + '/quote', body).then(function (q) {
      $('error').textContent = ''; $('continue').disabled = false; render(q);
    }, function (e) { $('continue').disabled = true; $('error').textContent = e.message; });
  }
  $('amount').addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(requote, 300); });
  function createOrder(email) {
    var body = { email: email };
    body[cfg.type === 'buy' ? 'fiatAmount' : 'cryptoAmount'] = Number($('amount').value);
    return call('/sessions/' + cfg.session + '/orders', body).then(function (data) {
      order = data.order;
      render(data.quote);
      post('SWAPPED_ORDER_DATA', data.orderData, true);
      if (cfg.type === 'sell') {
        $('deposit-amount').textContent = crypto(data.quote.crypto_amount);
        $('deposit-address').textContent = data.orderData.address;
        if (data.orderData.memo) { $('deposit-memo').textContent = data.orderData.memo; $('memo-row').hidden = false; }
      }
      show('PAYMENT');
    }, function (e) { fail(e.message); });
  }
  $('amount-form').addEventListener('submit', function (event) {
    event.preventDefault();
    if (cfg.email) createOrder(cfg.email); else show('LOGIN_EMAIL');
  });
  $('email-form').addEventListener('submit', function (event) {
    event.preventDefault();
    createOrder($('email').value);
  });
  function finish(action) {
    $('pay').disabled = true; $('cancel').disabled = true;
    return call('/orders/' + order.id + '/' + action).then(function (data) {
      var done = action === 'complete';
      var payload = { order_id: data.order.id, order_status: data.order.status, order_type: cfg.type };
      if (done) post(cfg.type === 'buy' ? 'SWAPPED_TRANSACTION_SUCCESSFUL' : 'SWAPPED_WITHDRAWAL_SUCCESSFUL', payload, true);
      else post('SWAPPED_ERROR', { code: 'ORDER_CANCELLED', message: 'The order was cancelled' }, false);
      $('result-title').textContent = done ? (cfg.type === 'buy' ? 'Payment received' : 'Crypto received') : 'Order cancelled';
      $('result-title').className = done ? 'ok' : '';
      $('result-text').textContent = done
        ? (cfg.type === 'buy' ? 'Your crypto is on its way to your wallet.' : 'Your payout is being processed.')
        : 'Nothing was charged.';
      show('ORDER_CONFIRMATION');
      if (data.redirect) {
        $('redirect-note').hidden = false;
        setTimeout(function () { window.location.assign(data.redirect); }, 1500);
      }
    }, function (e) { $('pay').disabled = false; $('cancel').disabled = false; fail(e.message); });
  }
  $('pay').addEventListener('click', function () { finish('complete'); });
  $('cancel').addEventListener('click', function () { finish('cancel'); });
  $('close').addEventListener('click', function () { post('SWAPPED_CLOSE'); });
  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || !event.data || typeof event.data.type !== 'string') return;
    if (event.data.type === 'SWAPPED_FOCUS') $('amount').focus();
    if (event.data.type === 'SWAPPED_METHOD' && cfg.type === 'buy' && typeof event.data.method === 'string') {
      requote({ method: event.data.method });
    }
  });
  // The page's height, so the embedder can size its frame to it: {type, height} as the payment page posts it,
  // to the embedder's origin only (never '*'), whenever it changes (each step has its own height).
  var last = 0;
  function resize() {
    var height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === last || !target || window.parent === window) return;
    last = height;
    window.parent.postMessage({ type: 'SWAPPED_RESIZE', height: height }, target);
  }
  if (typeof ResizeObserver === 'function') new ResizeObserver(resize).observe(document.body);
  post('SWAPPED_READY');
  show('EMPTY');
})();
`;

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
    <style>${raw(styles)}</style>
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
    <script>${raw(script)}</script>`,
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
