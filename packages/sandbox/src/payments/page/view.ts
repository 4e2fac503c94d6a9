/**
 * The hosted payment page's HTML, one screen per order status: payer details, currency choice, payment (with the
 * sandbox's own simulate buttons) and the outcome, around a layout that carries the product, the styles, the
 * script and its JSON config. Everything is escaped by `hono/html`; the config is JSON safe inside `<script>`.
 */
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { CHAIN_NAMES, CRYPTOS, fiatToCrypto } from '../currencies.ts';
import { balance, type Order, type OrderRecord, PAID } from '../order.ts';
import { PAY_PAGE_SCRIPT } from './script.ts';
import { PAY_PAGE_STYLES } from './styles.ts';

/** What the payer may choose from, in this order (stablecoins on cheap chains first). */
const PAGE_CHOICES = [
  'USDC_BASE',
  'USDT_TRON',
  'USDC_SOLANA',
  'USDC_ETHEREUM',
  'USDT_ETHEREUM',
  'ETH',
  'ETH_BASE',
  'BTC',
  'SOL',
  'LTC',
  'XRP',
  'TON',
] as const;

/** How long the confirmation stays on screen before the page returns the payer to the merchant. */
const REDIRECT_DELAY_MS = 4000;

export const STATUS_MESSAGE_TYPE = 'SWAPPED_ORDER_STATUS';
/** `{type, height}`: the page's content height in CSS pixels, posted when it changes. */
export const RESIZE_MESSAGE_TYPE = 'SWAPPED_RESIZE';

/** JSON safe inside a <script> element: nothing in it can close the element or start markup. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

function money(amount: string, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(Number(amount));
  } catch {
    return `${amount} ${currency}`;
  }
}

const clockText = (ms: number) => {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

const cryptoLabel = (code: string) => {
  const row = CRYPTOS[code];
  return row ? `${row.symbol} on ${CHAIN_NAMES[row.chain]}` : code;
};

export interface View {
  record: OrderRecord;
  now: number;
  nonce: string;
  /** Path from the current URL to `/pay/`: '' on the page itself, '../' when re-rendered at `/pay/:id/<action>`. */
  up: string;
  /** `?parentOrigin=…` when given, kept on every form and redirect. */
  query: string;
  targetOrigin: string | undefined;
  error?: string | undefined;
  values?: { name?: string; email?: string };
}

function layout(view: View, title: string, body: HtmlEscapedString | Promise<HtmlEscapedString>) {
  const { order } = view.record;
  const redirectUrl = order.metadata['redirectUrl'];
  const paid = PAID.has(order.status);
  const config = {
    orderId: order.id,
    status: order.status,
    messageType: STATUS_MESSAGE_TYPE,
    resizeType: RESIZE_MESSAGE_TYPE,
    targetOrigin: view.targetOrigin ?? null,
    serverNow: view.now,
    expiresAt: isOpen(order, view.now) ? Date.parse(order.expiresAt) : null,
    statusUrl: `${view.up}${order.id}/status`,
    redirectUrl: paid && redirectUrl ? redirectUrl : null,
    redirectDelayMs: REDIRECT_DELAY_MS,
    final: isFinal(order, view.now),
  };
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    ${paid && redirectUrl ? html`<meta http-equiv="refresh" content="${Math.ceil(REDIRECT_DELAY_MS / 1000) + 2};url=${redirectUrl}" />` : ''}
    <title>${title} · ${order.purchase.name}</title>
    <style nonce="${view.nonce}">${raw(PAY_PAGE_STYLES)}</style>
  </head>
  <body>
    <main>
      <header class="card">
        <span class="badge">Sandbox · no real funds</span>
        <div class="item">
          ${order.purchase.imageUrl ? html`<img src="${order.purchase.imageUrl}" alt="" width="64" height="64" />` : ''}
          <div>
            <h1 id="item-name">${order.purchase.name}</h1>
            ${order.purchase.description ? html`<p class="muted desc">${order.purchase.description}</p>` : ''}
          </div>
        </div>
        <p class="price" aria-label="Price">${money(order.purchase.price, order.purchase.currency.symbol)}</p>
        <p class="muted">Order ${order.id}</p>
      </header>
      ${view.error ? html`<p class="notice bad" role="alert">${view.error}</p>` : ''}
      ${body}
      <p id="copy-status" class="muted" role="status" aria-live="polite"></p>
      <footer>
        ${redirectUrl ? html`<a id="return-link" href="${redirectUrl}" target="_self">Return to merchant</a>` : ''}
      </footer>
    </main>
    <script type="application/json" id="pay-config">${raw(scriptJson(config))}</script>
    <script nonce="${view.nonce}">${raw(PAY_PAGE_SCRIPT)}</script>
  </body>
</html>`;
}

const isOpen = (order: Order, now: number) =>
  now < Date.parse(order.expiresAt) &&
  [
    'PENDING_USER_CREATION',
    'PENDING_CURRENCY_SELECTION',
    'AWAITING_PAYMENT',
    'PAYMENT_CONFIRMED_UNDERPAID',
  ].includes(order.status);

const isFinal = (order: Order, now: number) => !isOpen(order, now);

function formAction(view: View, action: string) {
  return `${view.up}${view.record.order.id}/${action}${view.query}`;
}

function customerStep(view: View) {
  const invalid = view.error !== undefined;
  return html`<form class="card" method="post" action="${formAction(view, 'customer')}" novalidate>
    <h2>Your details</h2>
    <p class="muted">The merchant uses these to send your receipt.</p>
    <label for="name">Full name</label>
    <input id="name" name="name" type="text" autocomplete="name" required maxlength="200"
      value="${view.values?.name ?? ''}" aria-invalid="${invalid ? 'true' : 'false'}" />
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="email" required maxlength="200"
      value="${view.values?.email ?? ''}" aria-invalid="${invalid ? 'true' : 'false'}" />
    <div class="actions"><button type="submit">Continue</button></div>
  </form>`;
}

function currencyChoices(view: View, legend: string, button: string) {
  const { order } = view.record;
  const current = view.record.order.depositAddress ? view.record.payCode : 'USDC_BASE';
  return html`<form method="post" action="${formAction(view, 'currency')}">
    <fieldset>
      <legend>${legend}</legend>
      ${PAGE_CHOICES.map(
        (code) => html`<label class="choice">
          <span><input type="radio" name="currency" value="${code}" ${code === current ? 'checked' : ''} />
            ${cryptoLabel(code)}</span>
          <span>${fiatToCrypto(order.purchase.price, order.purchase.currency.symbol, code, view.now)}
            ${CRYPTOS[code]?.symbol}</span>
        </label>`,
      )}
    </fieldset>
    <div class="actions"><button type="submit">${button}</button></div>
  </form>`;
}

function sandboxPanel(view: View, canPay: boolean) {
  const { order } = view.record;
  const canExpire = order.payments.length === 0;
  return html`<section class="card sandbox" aria-labelledby="sandbox-title">
    <h2 id="sandbox-title">Sandbox controls</h2>
    <p class="muted">Simulate what the blockchain would do. Only this sandbox has these buttons.</p>
    <form method="post" action="${formAction(view, 'simulate')}" class="actions">
      ${
        canPay
          ? html`<button type="submit" name="kind" value="exact">Pay exact amount</button>
            <button type="submit" name="kind" value="underpaid" class="secondary">Underpay</button>
            <button type="submit" name="kind" value="overpaid" class="secondary">Overpay</button>`
          : ''
      }
      ${canExpire ? html`<button type="submit" name="kind" value="expire" class="secondary">Expire now</button>` : ''}
    </form>
  </section>`;
}

function countdown(view: View) {
  const left = Date.parse(view.record.order.expiresAt) - view.now;
  return html`<p class="muted">Time left to pay:
    <span class="timer" id="countdown" role="timer" aria-live="off">${clockText(left)}</span></p>`;
}

function paymentStep(view: View) {
  const { order } = view.record;
  const deposit = order.depositAddress;
  if (!deposit) return html``;
  const symbol = order.quote.toAmount.currency.symbol;
  const { received, remaining } = balance(order);
  const under = order.status === 'PAYMENT_CONFIRMED_UNDERPAID';
  return html`<section class="card" aria-labelledby="pay-title">
      <h2 id="pay-title">${under ? 'Send the rest' : 'Send your payment'}</h2>
      ${
        under
          ? html`<p class="notice warn" role="status">We received ${received} ${symbol}, less than the amount due.
              Send the remaining ${remaining} ${symbol} to complete the payment.</p>`
          : ''
      }
      <dl>
        <div><dt>Amount</dt><dd><code id="amount">${remaining}</code> ${symbol}
          <button type="button" class="copy secondary" data-copy="${remaining}" aria-controls="amount" hidden>Copy</button></dd></div>
        <div><dt>Network</dt><dd>${cryptoLabel(view.record.payCode)}</dd></div>
        <div><dt>Address</dt><dd><code id="address">${deposit.address}</code>
          <button type="button" class="copy secondary" data-copy="${deposit.address}" aria-controls="address" hidden>Copy</button></dd></div>
        ${
          deposit.memo
            ? html`<div><dt>Memo / destination tag</dt><dd><code id="memo">${deposit.memo}</code>
              <button type="button" class="copy secondary" data-copy="${deposit.memo}" aria-controls="memo" hidden>Copy</button></dd></div>`
            : ''
        }
      </dl>
      ${deposit.memo ? html`<p class="notice warn">Include the memo, or the payment cannot be matched to this order.</p>` : ''}
      ${countdown(view)}
      ${
        order.payments.length === 0
          ? html`<details><summary>Pay with another currency</summary>
              ${currencyChoices(view, 'Choose another currency', 'Switch currency')}</details>`
          : ''
      }
    </section>
    ${sandboxPanel(view, true)}`;
}

function outcome(view: View) {
  const { order } = view.record;
  const redirectUrl = order.metadata['redirectUrl'];
  if (PAID.has(order.status)) {
    const over = order.status === 'PAYMENT_CONFIRMED_OVERPAID';
    return html`<section class="card" aria-labelledby="done-title">
      <p class="done" aria-hidden="true">✓</p>
      <h2 id="done-title" role="status">Payment received</h2>
      <p>${balance(order).received} ${order.quote.toAmount.currency.symbol} confirmed on-chain.</p>
      ${over ? html`<p class="notice warn">You sent more than was due. Contact the merchant about the difference.</p>` : ''}
      ${
        redirectUrl
          ? html`<p class="muted">Returning to the merchant in <span id="redirect-in">${REDIRECT_DELAY_MS / 1000}</span> s.</p>`
          : ''
      }
    </section>`;
  }
  const texts: Record<string, [string, string]> = {
    EXPIRED: ['This payment has expired', 'Nothing was paid. Start again from the merchant’s site.'],
    CANCELLED: ['This payment was cancelled', 'Nothing was paid. Start again from the merchant’s site.'],
    PAYMENT_CONFIRMED_UNDERPAID: [
      'The payment window has closed',
      `Only ${balance(order).received} ${order.quote.toAmount.currency.symbol} of ${balance(order).due} arrived in time. Contact the merchant about a refund.`,
    ],
  };
  const [title, text] = texts[order.status] ?? ['This payment is closed', ''];
  return html`<section class="card" aria-labelledby="closed-title">
    <h2 id="closed-title" role="status">${title}</h2><p>${text}</p></section>`;
}

export function render(view: View) {
  const { order } = view.record;
  if (!isOpen(order, view.now)) return layout(view, 'Payment', outcome(view));
  switch (order.status) {
    case 'PENDING_USER_CREATION':
      return layout(view, 'Your details', html`${customerStep(view)}${sandboxPanel(view, false)}`);
    case 'PENDING_CURRENCY_SELECTION':
      return layout(
        view,
        'Choose a currency',
        html`<div class="card">${currencyChoices(view, 'Pay with', 'Continue')}${countdown(view)}</div>
          ${sandboxPanel(view, false)}`,
      );
    default:
      return layout(view, 'Pay', paymentStep(view));
  }
}

export const notFoundPage = (id: string) => html`<!doctype html>
<html lang="en"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" />
<title>Payment not found</title></head>
<body style="font: 16px/1.5 system-ui, sans-serif; max-width: 30rem; margin: 2rem auto; padding: 0 1rem">
<h1>Payment not found</h1><p>There is no payment <code>${id}</code>. Check the link you were given.</p></body></html>`;
