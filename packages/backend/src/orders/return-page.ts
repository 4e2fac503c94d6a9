/**
 * `GET /api/orders/{id}/return`, where the payment page sends the payer: at top level a 303 to the merchant's
 * `returnUrl` (with `orderId` and `status`) or a small page saying how it went; inside the widget's iframe a page
 * that tells the widget by `postMessage`, to the merchant's origin only, and that only the shop may frame.
 */
import type { Context } from 'hono';
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { askedInFrame } from '../middleware/security.ts';
import type { OrderRecord } from './order.ts';
import type { OrderStatus } from './status.ts';

const statusSentence: Record<OrderStatus, string> = {
  pending: 'Your payment has not arrived yet.',
  awaiting_payment: 'We are waiting for your payment to arrive.',
  underpaid: 'Your payment arrived but was less than the amount due.',
  paid: 'Payment received. Thank you!',
  overpaid: 'Payment received (a little more than the amount due). Thank you!',
  expired: 'This payment request has expired.',
  failed: 'This payment failed.',
  paid_late: 'Your payment arrived after the time to pay had ended: the shop is reviewing it.',
  cancelled: 'This payment was cancelled.',
};

/**
 * JSON safe inside an inline <script>, whose text the HTML parser does not unescape: `<`, `>`, `&` and the two
 * JavaScript line terminators are written as \u escapes, so no `</script>` can end it early.
 */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

const style =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;color:#1b1b1f;background:#fff}@media (prefers-color-scheme:dark){body{color:#eee;background:#16161a}}main{max-width:28rem;padding:2rem;text-align:center}';

/** The page; its <style> and <script> carry the request's nonce, which its CSP (middleware/security.ts) names. */
function page(body: HtmlEscapedString | Promise<HtmlEscapedString>, nonce: string, script?: string) {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Payment</title><style nonce="${nonce}">${raw(style)}</style></head>
<body><main>${body}</main>${script ? html`<script nonce="${nonce}">${raw(script)}</script>` : ''}</body></html>`;
}

/** The answer for `record` (as the ledger knows it now) to a payer arriving from the payment page. */
export async function returnAnswer(c: Context, record: OrderRecord, allowedOrigins: readonly string[]) {
  const { status } = record;
  const framed = askedInFrame(c);
  const nonce = c.get('secureHeadersNonce') ?? '';
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');

  if (!framed) {
    if (record.returnUrl) {
      const target = new URL(record.returnUrl);
      target.searchParams.set('orderId', record.id);
      target.searchParams.set('status', status);
      return c.redirect(target.toString(), 303);
    }
    return c.html(await page(html`<p>${statusSentence[status]}</p><p>You can close this window.</p>`, nonce));
  }

  // The widget framing the payment page listens for this; only the merchant's origin may read it.
  const targetOrigin = record.returnUrl
    ? new URL(record.returnUrl).origin
    : (record.origin ?? allowedOrigins[0]);
  const message = { type: 'crypto-checkout:return', orderId: record.id, status };
  const code = targetOrigin
    ? `window.parent.postMessage(${scriptJson(message)}, ${scriptJson(targetOrigin)});`
    : '';
  return c.html(await page(html`<p>${statusSentence[status]}</p>`, nonce, code || undefined));
}
