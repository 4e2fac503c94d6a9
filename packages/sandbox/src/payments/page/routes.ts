/**
 * The hosted payment page (`/pay/:orderId`), the upstream's `{pay_url}`: server-rendered, inline CSS and JS only,
 * embeddable in an iframe. Every action is a same-frame form POST answered with a 303 back to the page, so it
 * works in a frame without cookies or cross-origin requests. All URLs are relative, so the page works wherever
 * the sandbox is mounted.
 *
 * To the embedding page it posts `{type: 'SWAPPED_ORDER_STATUS', orderId, status}` on every load (the page
 * reloads itself when the status changes), and `{type: 'SWAPPED_RESIZE', height}` whenever its content's height
 * changes, only to the origin of `metadata.redirectUrl`, never `'*'`.
 */
import { randomBytes } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import type { SandboxState } from '../../state.ts';
import { CHAIN_NAMES, CRYPTOS, cryptoCode, fiatToCrypto } from '../currencies.ts';
import { LedgerError, ledgerOf } from '../ledger.ts';
import { balance, type Order, type OrderRecord, PAID } from '../order.ts';
import {
  expire,
  openPage,
  provideCustomer,
  receivePayment,
  selectCurrency,
  TransitionError,
} from '../order-transitions.ts';

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

/**
 * Where status messages may go: `parentOrigin` (query) when it equals the origin of metadata.redirectUrl,
 * otherwise that origin; without a redirectUrl there is no trusted origin and nothing is posted.
 */
export function messageTargetOrigin(redirectUrl: string | undefined, parentOrigin: string | undefined) {
  const expected = originOf(redirectUrl);
  if (!expected) return undefined;
  return parentOrigin === expected ? parentOrigin : expected;
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

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

interface View {
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

const STYLES = `
:root { color-scheme: light dark; --bg: #f6f7fb; --card: #fff; --text: #15171c; --muted: #5b6170; --line: #dfe2ea;
  --accent: #3b4fe0; --accent-text: #fff; --ok: #0f7b4b; --warn: #8a5a00; --bad: #b3261e; --chip: #eef0fb;
  --radius: 14px; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
@media (prefers-color-scheme: dark) { :root { --bg: #0f1115; --card: #181b22; --text: #eef0f5; --muted: #a3a9b7;
  --line: #2b303b; --accent: #8c9bff; --accent-text: #0f1115; --ok: #5fd39b; --warn: #f2c05c; --bad: #ff8a80;
  --chip: #232838; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); }
main { max-width: 30rem; margin: 0 auto; padding: 1rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); padding: 1.25rem; }
.card + .card { margin-top: 0.75rem; }
.badge { display: inline-block; font-size: 0.75rem; font-weight: 600; letter-spacing: 0.02em; padding: 0.1rem 0.5rem;
  border-radius: 999px; background: var(--chip); color: var(--muted); }
.item { display: flex; gap: 0.9rem; align-items: center; }
.item img { width: 64px; height: 64px; object-fit: cover; border-radius: 10px; border: 1px solid var(--line); }
h1 { font-size: 1.15rem; margin: 0.25rem 0 0; }
h2 { font-size: 1rem; margin: 0 0 0.75rem; }
.muted { color: var(--muted); font-size: 0.9rem; margin: 0.15rem 0 0; }
.price { font-size: 1.6rem; font-weight: 700; margin: 0.75rem 0 0; font-variant-numeric: tabular-nums; }
label { display: block; font-weight: 600; margin: 0.75rem 0 0.25rem; }
input[type=text], input[type=email] { width: 100%; font: inherit; padding: 0.6rem 0.7rem; border-radius: 10px;
  border: 1px solid var(--line); background: var(--card); color: var(--text); }
input[aria-invalid=true] { border-color: var(--bad); }
button, .button { font: inherit; font-weight: 600; border: 0; border-radius: 10px; padding: 0.65rem 1rem;
  background: var(--accent); color: var(--accent-text); cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary { background: var(--chip); color: var(--text); }
button:focus-visible, a:focus-visible, input:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.actions { margin-top: 1rem; display: flex; gap: 0.5rem; flex-wrap: wrap; }
fieldset { border: 0; margin: 0; padding: 0; }
legend { font-weight: 600; margin-bottom: 0.5rem; }
.choice { display: flex; justify-content: space-between; align-items: center; gap: 0.5rem; padding: 0.55rem 0.75rem;
  border: 1px solid var(--line); border-radius: 10px; margin-top: 0.4rem; font-weight: 500; cursor: pointer; }
.choice:has(input:checked) { border-color: var(--accent); box-shadow: 0 0 0 1px var(--accent); }
.choice span:last-child { color: var(--muted); font-variant-numeric: tabular-nums; }
dl { margin: 0; display: grid; gap: 0.6rem; }
dt { font-size: 0.8rem; color: var(--muted); font-weight: 600; text-transform: uppercase; letter-spacing: 0.04em; }
dd { margin: 0; display: flex; gap: 0.5rem; align-items: center; }
code { font: 0.9rem/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; word-break: break-all; }
.copy { padding: 0.3rem 0.6rem; font-size: 0.8rem; }
.notice { padding: 0.6rem 0.75rem; border-radius: 10px; background: var(--chip); margin: 0.75rem 0 0; }
.notice + dl { margin-top: 0.75rem; }
.notice.warn { color: var(--warn); } .notice.bad { color: var(--bad); } .notice.ok { color: var(--ok); }
.timer { font-variant-numeric: tabular-nums; font-weight: 700; }
/* In a frame the merchant's page shows the product already: a compact header (no picture, no description). */
.framed main { padding: 0.5rem 0.75rem; }
.framed .card { padding: 0.9rem 1rem; }
.framed .item img, .framed .desc { display: none; }
.framed .price { font-size: 1.3rem; margin-top: 0.25rem; }
.framed label { margin-top: 0.5rem; }
.framed footer { margin: 0.5rem 0 0; }
/* A narrow frame sits inside the merchant's own card: flat sections, not cards inside cards. */
@media (max-width: 480px) {
  .framed body { background: var(--card); }
  .framed main { padding: 0 0.25rem; }
  .framed .card { border: 0; border-radius: 0; padding: 0.75rem 0; background: none; }
  .framed .card + .card { margin-top: 0; border-top: 1px solid var(--line); }
}
.done { font-size: 2.5rem; line-height: 1; color: var(--ok); }
.sandbox { border-style: dashed; }
.sandbox p { margin: 0 0 0.5rem; }
footer { text-align: center; margin: 1rem 0; font-size: 0.9rem; }
footer a { color: var(--accent); }
@media (prefers-reduced-motion: no-preference) { button, .choice { transition: box-shadow 120ms, transform 120ms; }
  button:active { transform: translateY(1px); } }
[hidden] { display: none !important; }
`;

const SCRIPT = `
(() => {
  const cfg = JSON.parse(document.getElementById('pay-config').textContent);
  if (window.parent !== window) document.documentElement.classList.add('framed');
  const skew = cfg.serverNow - Date.now();
  const now = () => Date.now() + skew;
  if (cfg.targetOrigin && window.parent !== window) {
    window.parent.postMessage({ type: cfg.messageType, orderId: cfg.orderId, status: cfg.status }, cfg.targetOrigin);
    // The content's height, so the embedding page can size the frame to it (same trusted origin only).
    const main = document.querySelector('main');
    let last = 0;
    const post = () => {
      const height = Math.ceil(main.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      window.parent.postMessage({ type: cfg.resizeType, height }, cfg.targetOrigin);
    };
    if (main && typeof ResizeObserver === 'function') new ResizeObserver(post).observe(main);
  }
  const timer = document.getElementById('countdown');
  const fmt = (ms) => { const s = Math.max(0, Math.floor(ms / 1000)); return Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0'); };
  if (timer && cfg.expiresAt) {
    const tick = () => {
      const left = cfg.expiresAt - now();
      timer.textContent = fmt(left);
      if (left <= 0) { clearInterval(handle); location.reload(); }
    };
    const handle = setInterval(tick, 1000);
  }
  if (cfg.redirectUrl) {
    const out = document.getElementById('redirect-in');
    const at = Date.now() + cfg.redirectDelayMs;
    const step = () => {
      const left = at - Date.now();
      if (out) out.textContent = String(Math.max(0, Math.ceil(left / 1000)));
      if (left <= 0) location.href = cfg.redirectUrl; else setTimeout(step, 250);
    };
    step();
  }
  if (!cfg.final) {
    setInterval(async () => {
      try {
        const res = await fetch(cfg.statusUrl, { cache: 'no-store' });
        const body = await res.json();
        if (body.status !== cfg.status) location.reload();
      } catch {}
    }, 2000);
  }
  const live = document.getElementById('copy-status');
  for (const button of document.querySelectorAll('[data-copy]')) {
    button.hidden = false;
    button.addEventListener('click', async () => {
      const text = button.getAttribute('data-copy');
      try { await navigator.clipboard.writeText(text); live.textContent = 'Copied to clipboard'; }
      catch { const r = document.createRange(); r.selectNodeContents(document.getElementById(button.getAttribute('aria-controls'))); getSelection().removeAllRanges(); getSelection().addRange(r); live.textContent = 'Selected: press Ctrl+C or Cmd+C to copy'; }
    });
  }
})();
`;

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
    <style nonce="${view.nonce}">${raw(STYLES)}</style>
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
    <script nonce="${view.nonce}">${raw(SCRIPT)}</script>
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

function render(view: View) {
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

const notFoundPage = (id: string) => html`<!doctype html>
<html lang="en"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" />
<title>Payment not found</title></head>
<body style="font: 16px/1.5 system-ui, sans-serif; max-width: 30rem; margin: 2rem auto; padding: 0 1rem">
<h1>Payment not found</h1><p>There is no payment <code>${id}</code>. Check the link you were given.</p></body></html>`;

const customerSchema = z.object({ name: z.string().trim().min(1).max(200), email: z.email().max(200) });
const currencySchema = z.object({ currency: z.string() });
const simulateSchema = z.object({ kind: z.enum(['exact', 'underpaid', 'overpaid', 'expire']) });

export function payPage(state: SandboxState) {
  const ledger = ledgerOf(state);

  const queryOf = (c: Context) => {
    const parentOrigin = c.req.query('parentOrigin');
    return parentOrigin ? `?${new URLSearchParams({ parentOrigin })}` : '';
  };

  const show = (
    c: Context,
    record: OrderRecord,
    status: ContentfulStatusCode = 200,
    extra: Pick<View, 'error' | 'values'> = {},
  ) => {
    const nonce = randomBytes(16).toString('base64');
    c.header(
      'Content-Security-Policy',
      [
        "default-src 'none'",
        `script-src 'nonce-${nonce}'`,
        `style-src 'nonce-${nonce}'`,
        'img-src http: https: data:',
        "connect-src 'self'",
        "form-action 'self'",
        "base-uri 'none'",
        // Embeddable anywhere, like the real page (merchants frame it on their own sites).
        'frame-ancestors *',
      ].join('; '),
    );
    c.header('Cache-Control', 'no-store');
    const query = queryOf(c);
    const view: View = {
      record,
      now: state.now(),
      nonce,
      up: c.req.path.endsWith(`/${record.order.id}`) ? '' : '../',
      query,
      targetOrigin: messageTargetOrigin(record.order.metadata['redirectUrl'], c.req.query('parentOrigin')),
      ...extra,
    };
    return c.html(render(view), status);
  };

  /** Post/redirect/get: back to the page (relative to `/pay/:id/<action>`), keeping the query. */
  const back = (c: Context, id: string) => c.redirect(`../${id}${queryOf(c)}`, 303);

  const form = async (c: Context) => {
    const body = await c.req.parseBody();
    return Object.fromEntries(Object.entries(body).filter(([, v]) => typeof v === 'string')) as Record<
      string,
      string
    >;
  };

  /** A form action on an existing order: unknown ids get the 404 page; the handler gets the order and fields. */
  const action =
    (
      handle: (
        c: Context,
        id: string,
        record: OrderRecord,
        values: Record<string, string>,
      ) => Response | Promise<Response>,
    ) =>
    async (c: Context) => {
      const id = c.req.param('id') ?? '';
      const record = ledger.get(id);
      if (!record) return c.html(notFoundPage(id), 404);
      return handle(c, id, record, await form(c));
    };

  return new Hono()
    .get('/:id', (c) => {
      const id = c.req.param('id');
      if (!ledger.get(id)) return c.html(notFoundPage(id), 404);
      return show(c, ledger.apply(id, openPage));
    })
    .get('/:id/status', (c) => {
      const record = ledger.get(c.req.param('id'));
      if (!record) return c.json({ success: false, message: 'Order not found' }, 404);
      const { order } = record;
      c.header('Cache-Control', 'no-store');
      return c.json({ orderId: order.id, status: order.status, expiresAt: order.expiresAt });
    })
    .post(
      '/:id/customer',
      action((c, id, record, values) => {
        const parsed = customerSchema.safeParse(values);
        if (!parsed.success) {
          const error = 'Enter your name and a valid email address.';
          return show(c, record, 422, {
            error,
            values: { name: values['name'] ?? '', email: values['email'] ?? '' },
          });
        }
        ledger.apply(id, (r, ctx) => provideCustomer(r, parsed.data, ctx));
        return back(c, id);
      }),
    )
    .post(
      '/:id/currency',
      action((c, id, record, values) => {
        const parsed = currencySchema.safeParse(values);
        const code = parsed.success ? cryptoCode(parsed.data.currency) : undefined;
        if (!code) return show(c, record, 422, { error: 'Choose one of the listed currencies.' });
        ledger.apply(id, (r, ctx) => selectCurrency(r, code, ctx));
        return back(c, id);
      }),
    )
    .post(
      '/:id/simulate',
      action((c, id, record, values) => {
        const parsed = simulateSchema.safeParse(values);
        if (!parsed.success) return show(c, record, 422, { error: 'Unknown simulation.' });
        const kind = parsed.data.kind;
        if (kind === 'expire') ledger.apply(id, expire);
        else ledger.apply(id, (r, ctx) => receivePayment(r, { kind }, ctx));
        return back(c, id);
      }),
    )
    .onError((error, c) => {
      const id = c.req.param('id') ?? '';
      const record = id ? ledger.get(id) : undefined;
      if (record && (error instanceof TransitionError || error instanceof LedgerError)) {
        return show(c, record, 409, { error: error.message });
      }
      return c.text('Internal server error', 500);
    });
}
