/**
 * The reference for the load test: a bare Hono app that forwards `POST /api/quotes/buy` to the upstream's
 * pricing endpoint one for one, with no budget, no cache and no joining. It shows what the upstream would
 * suffer if the backend simply relayed every shopper's keystroke.
 */
import { Hono } from 'hono';

interface QuoteBody {
  paymentMethod?: string;
  country?: string;
  fiat?: string;
  crypto?: string;
  fiatAmount?: string | number;
  cryptoAmount?: string | number;
}

/** `rampApiUrl` is the ramp API root, e.g. `http://127.0.0.1:40000/ramp/api/v1/merchant`. */
export function createPassthroughProxy(rampApiUrl: string, apiKey: string) {
  return new Hono().post('/api/quotes/buy', async (c) => {
    const body = await c.req.json<QuoteBody>();
    const upstream = await fetch(`${rampApiUrl}/pricing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        api_key: apiKey,
        payment_method: body.paymentMethod,
        region: body.country,
        fiat_currency: body.fiat,
        crypto_currency: body.crypto,
        ...(body.fiatAmount !== undefined ? { fiat_amount: Number(body.fiatAmount) } : {}),
        ...(body.cryptoAmount !== undefined ? { crypto_amount: Number(body.cryptoAmount) } : {}),
      }),
    });
    return new Response(upstream.body, {
      status: upstream.status,
      headers: { 'content-type': upstream.headers.get('content-type') ?? 'application/json' },
    });
  });
}
