/**
 * The refund claim page (`/refunds/{token}`): what the merchant refunds and why, a form for the refund address
 * (and the memo where the network takes one) while it can still be given or corrected, and later the refund's
 * state (address received, sent with its transaction hash, cancelled). A plain HTML form: no script at all, one
 * nonce'd <style> (the CSP of middleware/security.ts). English only for now (`lang="en"`).
 */
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { memoNames, refundNetworks } from './addresses.ts';
import type { RefundRecord } from './refund.ts';

const style = `
:root{color-scheme:light dark}
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1b1f;background:#fff}
@media (prefers-color-scheme:dark){body{color:#eee;background:#16161a}input{background:#222;color:#eee}}
main{max-width:32rem;margin:0 auto;padding:1.5rem 1rem}
h1{font-size:1.4rem;margin:0 0 1rem}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input{box-sizing:border-box;width:100%;font:inherit;padding:.6rem;border:1px solid #767676;border-radius:6px}
input[aria-invalid=true]{border-color:#b3261e}
.hint{font-size:.9rem;margin:.25rem 0 0}
.error{color:#b3261e;font-weight:600}
@media (prefers-color-scheme:dark){.error{color:#ffb4ab}}
button{font:inherit;margin-top:1.25rem;padding:.7rem 1.2rem;border:0;border-radius:6px;background:#1d4ed8;color:#fff;min-height:44px}
code{word-break:break-all}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0;word-break:break-all}
`;

export interface ClaimPageError {
  field: 'address' | 'memo';
  reason: string;
}

const statusHeading: Record<RefundRecord['status'], string> = {
  requested: 'Your refund: where should it go?',
  address_provided: 'Your refund: address received',
  sent: 'Your refund has been sent',
  cancelled: 'This refund was cancelled',
};

function form(
  refund: RefundRecord,
  error: ClaimPageError | undefined,
  values: { address: string; memo: string },
) {
  const network = refundNetworks[refund.network];
  const memoName = memoNames[refund.network];
  const fieldError = (field: ClaimPageError['field']) =>
    error?.field === field ? html`<p class="error" id="${field}-error">${error.reason}.</p>` : '';
  const invalid = (field: ClaimPageError['field']) => (error?.field === field ? 'true' : 'false');
  const describedBy = (field: ClaimPageError['field'], hint: string) =>
    error?.field === field ? `${field}-error ${hint}` : hint;
  return html`<form method="post" novalidate>
<label for="address">Your ${network} address for ${refund.currency}</label>
<input id="address" name="address" autocomplete="off" spellcheck="false" required value="${values.address}" aria-invalid="${invalid('address')}" aria-describedby="${describedBy('address', 'address-hint')}">
<p class="hint" id="address-hint">Only an address on ${network}: a refund sent to another network is lost.</p>
${fieldError('address')}
${
  memoName
    ? html`<label for="memo">${memoName[0]?.toUpperCase()}${memoName.slice(1)} (if your wallet or exchange gives one)</label>
<input id="memo" name="memo" autocomplete="off" value="${values.memo}" aria-invalid="${invalid('memo')}" aria-describedby="${describedBy('memo', 'memo-hint')}">
<p class="hint" id="memo-hint">An exchange's deposit address usually needs its ${memoName}.</p>
${fieldError('memo')}`
    : ''
}
<button type="submit">${refund.status === 'requested' ? 'Send me the refund here' : 'Change the address'}</button>
</form>`;
}

/** The page for `refund` as it stands; with `error`, the form again with the reason and what was typed. */
export function claimPage(
  refund: RefundRecord,
  nonce: string,
  error?: ClaimPageError,
  typed?: { address: string; memo: string },
): Promise<HtmlEscapedString> | HtmlEscapedString {
  const network = refundNetworks[refund.network];
  const amount = `${refund.amount} ${refund.currency}`;
  const canGive = refund.status === 'requested' || refund.status === 'address_provided';
  const values = typed ?? { address: refund.address ?? '', memo: refund.memo ?? '' };
  const body = html`<h1>${statusHeading[refund.status]}</h1>
<p>The shop is refunding you <strong>${amount}</strong> on ${network}, for order <code>${refund.orderId}</code>.</p>
${refund.reason ? html`<p>Reason: ${refund.reason}</p>` : ''}
${error ? html`<p class="error" role="alert">That address was not accepted: ${error.reason}.</p>` : ''}
${
  refund.status === 'address_provided' && !error
    ? html`<p role="status">We have your address. The shop will send the refund to it; this page shows when it is sent.</p>
<dl><dt>Address</dt><dd><code>${refund.address}</code></dd>${refund.memo ? html`<dt>${memoNames[refund.network] ?? 'Memo'}</dt><dd><code>${refund.memo}</code></dd>` : ''}</dl>`
    : ''
}
${
  refund.status === 'sent'
    ? html`<p role="status">Sent to <code>${refund.address}</code>.</p><dl><dt>Transaction</dt><dd><code>${refund.txHash}</code></dd></dl>`
    : ''
}
${refund.status === 'cancelled' ? html`<p role="status">The shop cancelled this refund. Ask the shop if you think this is wrong.</p>` : ''}
${canGive ? form(refund, error, values) : ''}`;
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${statusHeading[refund.status]}</title><style nonce="${nonce}">${raw(style)}</style></head>
<body><main>${body}</main></body></html>`;
}

/** The page for a link that opens no refund. */
export function unknownClaimPage(nonce: string) {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Refund link not found</title><style nonce="${nonce}">${raw(style)}</style></head>
<body><main><h1>Refund link not found</h1><p>This link opens no refund. Check that it was copied whole, or ask the shop for it again.</p></main></body></html>`;
}
