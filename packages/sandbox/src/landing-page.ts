/**
 * The sandbox's landing page for a newcomer: what it simulates, the keys, pages to open at once (ramp widget
 * URLs signed for the demo merchant), API calls to try, the controls and the magic values.
 */
import { html } from 'hono/html';
import { answers } from './controls/faults.ts';
import { rampSecretFor } from './keys.ts';
import { PAYMENTS_MAGIC, RAMP_MAGIC } from './magic.ts';
import { widgetSignature } from './ramp/widget/signature.ts';
import type { SandboxState } from './state.ts';

/** The merchant `npm start` runs as (`pk_sandbox_demo` …); its links are what a merchant's backend would sign. */
export const DEMO_MERCHANT = 'demo';

/**
 * A widget URL signed as a merchant's backend does it (docs/upstream.md#url-signing), with every value
 * URL-encoded.
 */
export function signedWidgetUrl(
  widgetUrl: string,
  merchantId: string,
  params: Record<string, string>,
): string {
  const query = Object.entries({ apiKey: `pk_sandbox_${merchantId}`, ...params })
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&');
  const signature = widgetSignature(rampSecretFor(merchantId), `?${query}`);
  return `${widgetUrl}?${query}&signature=${encodeURIComponent(signature)}`;
}

/** The demo's buy and sell widget URLs; after an order the widget comes back here with its id and status. */
export function demoWidgetUrls(baseUrl: string) {
  // No slash before the query: mounted, `/sandbox/` redirects to `/sandbox` and would drop it.
  const redirectUrl = `${baseUrl}?orderId={orderId}&orderStatus={orderStatus}`;
  return {
    buy: signedWidgetUrl(`${baseUrl}/ramp/`, DEMO_MERCHANT, {
      currencyCode: 'USDC_BASE',
      walletAddress: '0x000000000000000000000000000000000000dEaD',
      method: 'creditcard',
      baseCurrencyCode: 'EUR',
      baseCurrencyAmount: '50.00',
      redirectUrl,
    }),
    sell: signedWidgetUrl(`${baseUrl}/ramp/sell`, DEMO_MERCHANT, {
      cryptoCurrencyCode: 'BTC',
      method: 'bank-transfer',
      fiatCurrencyCode: 'EUR',
      fiatCurrencyAmount: '100.00',
      redirectUrl,
    }),
  };
}

/** The kinds of fault a rule can inject, in words: `latency, an error status, … or an empty body`. */
const faultKinds = ['latency', ...Object.values(answers).map((a) => a.summary)]
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

export const landingPage = (state: SandboxState, returned?: { orderId: string; status: string }) => {
  const base = state.baseUrl;
  const ramp = `${base}/ramp/api/v1/merchant`;
  const widget = demoWidgetUrls(base);
  const key = `pk_sandbox_${DEMO_MERCHANT}`;
  const pricing = JSON.stringify({
    api_key: key,
    payment_method: 'creditcard',
    region: 'DE',
    fiat_amount: 100,
    crypto_currency: 'BTC',
  });
  const order = JSON.stringify({ purchase: { name: 'Mug', price: '12.00', currency: 'EUR' } });
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Upstream sandbox</title>
    <style>
      :root { color-scheme: light dark; }
      body { font: 16px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; }
      code, pre { background: color-mix(in srgb, currentColor 8%, transparent); border-radius: 4px; }
      code { padding: 0 0.25em; }
      pre { padding: 0.6rem 0.8rem; overflow-x: auto; font-size: 0.85rem; }
      table { border-collapse: collapse; }
      td, th { text-align: left; padding: 0.2rem 0.8rem 0.2rem 0; vertical-align: top; }
      .note { border-left: 3px solid #2f6fde; padding-left: 0.8rem; }
    </style>
  </head>
  <body>
    <h1>Upstream sandbox</h1>
    <p>An offline simulator of the crypto ramp and payments service. Nothing here moves real money: prices come
      from a made-up feed that drifts over time, payments are buttons, addresses exist on no chain.</p>
    ${
      returned
        ? html`<p class="note" role="status">The widget came back: order <code>${returned.orderId}</code> is
            <code>${returned.status}</code>.</p>`
        : ''
    }

    <h2>Open it</h2>
    <ul>
      <li><a id="demo-buy" href="${widget.buy}">Buy 50 EUR of USDC on Base</a> in the hosted ramp widget, or
        <a id="demo-sell" href="${widget.sell}">sell BTC for 100 EUR</a>. Both URLs are signed with
        <code>sk_sandbox_${DEMO_MERCHANT}</code>, as a merchant's backend signs them; the widget refuses an unsigned
        or altered one.</li>
      <li>Ramp API, no key needed for these:
        <a href="${ramp}/get_supported">get_supported</a>,
        <a href="${ramp}/get_payment_methods?country=DE">get_payment_methods?country=DE</a>,
        <a href="${ramp}/get_payment_methods">get_payment_methods</a> (keyed by country),
        <a href="${ramp}/sell/get_payout_methods?slug=BR">sell/get_payout_methods?slug=BR</a>.</li>
      <li>A hosted payment page (<code>${base}/pay/{orderId}</code>) is the <code>link</code> of an order the
        payments API creates (below).</li>
    </ul>

    <h2>Keys</h2>
    <p>Any key of this form works, any other is refused; each <code>&lt;id&gt;</code> is a merchant of its own.</p>
    <table>
      <tr><th>key</th><th>what</th></tr>
      <tr><td><code>pk_sandbox_&lt;id&gt;</code></td><td>ramp public key: <code>api_key</code> / <code>apiKey</code>, widget URLs</td></tr>
      <tr><td><code>sk_sandbox_&lt;id&gt;</code></td><td>ramp secret: signs widget URLs; the sandbox signs ramp callbacks with it</td></tr>
      <tr><td><code>pay_sandbox_&lt;id&gt;</code></td><td>payments API key: header <code>X-API-Key</code></td></tr>
      <tr><td><code>whsec_sandbox_&lt;id&gt;</code></td><td>payments webhook secret (<code>x-swapped-signature</code>)</td></tr>
    </table>

    <h2>Try the APIs</h2>
    <pre>curl -X POST ${ramp}/pricing \
  -H 'content-type: application/json' -d '${pricing}'</pre>
    <pre>curl -X POST ${base}/pay-api/v1/orders -H 'x-api-key: pay_sandbox_${DEMO_MERCHANT}' \
  -H 'content-type: application/json' -d '${order}'</pre>
    <ul>
      <li>Ramp API: <code>${ramp}/</code> (pricing, sell/pricing, get_payment_methods, sell/get_payout_methods,
        get_supported, get_status), 100 requests a second per key.</li>
      <li>Payments API: <code>${base}/pay-api/v1/</code> (orders, payment-routes, merchants/orders).</li>
    </ul>

    <h2>Controls</h2>
    <p>For tests and demos, unauthenticated:
      <a href="${base}/control/settings">settings</a> (payment-methods shape, webhook casing, rate limit, retries),
      <a href="${base}/control/clock">clock</a> (pin or advance it: quotes then repeat exactly),
      <a href="${base}/control/faults">faults</a> (${faultKinds} on any route),
      <a href="${base}/control/deliveries">deliveries</a> (every webhook and callback attempt),
      <a href="${base}/control/pending">pending</a> (what is still to happen: held answers, retries),
      and <code>POST ${base}/control/reset</code>. Orders can be paid, expired or cancelled through
      <code>${base}/control/orders/{id}/…</code>.</p>
    <p>Magic values force outcomes, e.g. <code>fiat_amount: ${RAMP_MAGIC.failingAmount}</code> (a 500), <code>pk_sandbox_ratelimited</code>
      (always 429), <code>purchase.price: "${PAYMENTS_MAGIC.failingPrice}"</code> (a 500), payer email <code>${PAYMENTS_MAGIC.underpaidEmail}</code>.
      The full list, the quote model and where the sandbox guesses are in <code>packages/sandbox/README.md</code>.</p>
  </body>
</html>`;
};
