/**
 * The demo storefront's own routes: its pages, and the server-side parts a merchant writes themselves: minting
 * customer and checkout tokens, and calling the backend's admin API with the admin token kept on the server.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCheckoutToken, createCustomerToken } from '@crypto-checkout/backend';
import { serveStatic } from '@hono/node-server/serve-static';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import { fill, layout, parsePage } from './layout.ts';

export const demoDir = fileURLToPath(new URL('.', import.meta.url));
const pagesDir = join(demoDir, 'pages');
const distDir = join(demoDir, 'dist');

export interface DemoOptions {
  mode: 'sandbox' | 'live';
  /** Signs the checkout and customer tokens (the backend's `CHECKOUT_TOKEN_SECRET`). */
  tokenSecret: string;
  /** The backend admin credential's token: used here, server-side, never sent to the browser. */
  adminToken: string;
  /** Where this server reaches the backend over HTTP, as a merchant's server would (resolved per request). */
  backendUrl: () => string;
  /**
   * Headers every page is sent with: the storefront's Content-Security-Policy and Reporting-Endpoints, as
   * `storefrontCsp(config)` computes them (server.ts), so the demo runs under the policy a merchant copies.
   */
  pageHeaders?: Record<string, string>;
}

/** The cookie that identifies the demo's shopper, standing in for a merchant's own login. */
const customerCookie = 'demo_customer';
/** The fields of the backend's `AdminOrder` that the thank-you page uses. */
interface AdminOrder {
  /** The upstream order id. */
  id: string;
  /** Ours: the `orderId` the widget and the return URL carry. */
  externalId?: string | null;
  status: string | null;
  purchase?: { name?: string | null; price?: string | null; currency?: unknown };
  paid?: { amount: string; currency: string } | null;
}

const displayModes = ['auto', 'modal', 'inline', 'redirect'];

const tipSchema = z.object({
  amount: z
    .string()
    .regex(/^\d{1,5}(\.\d{1,2})?$/, 'Enter an amount like 12.50')
    .refine((value) => Number(value) >= 1 && Number(value) <= 5000, 'Between 1 and 5000'),
  currency: z.enum(['EUR', 'USD', 'GBP']).default('EUR'),
});

/** Each page fragment, read and parsed on first use; the files do not change while the server runs. */
const parsedPages = new Map<string, Promise<ReturnType<typeof parsePage>>>();

async function renderPage(
  file: string,
  mode: DemoOptions['mode'],
  values: Record<string, string> = {},
): Promise<string> {
  let parsed = parsedPages.get(file);
  if (!parsed) {
    parsed = readFile(join(pagesDir, `${file}.html`), 'utf8').then((source) => parsePage(source, file));
    parsedPages.set(file, parsed);
  }
  const { meta, body } = await parsed;
  return layout(meta, fill(body, values), { mode });
}

/**
 * For the "blocked iframe" example: the payment page refuses to be framed when it is framed by that example
 * page, the way a host with `X-Frame-Options: DENY` or a strict CSP would, so the widget's new-tab fallback
 * can be seen (and tested) without breaking the other pages.
 */
export function refuseFramingFrom(pagePath: string): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const referer = c.req.header('referer');
    let fromPage = false;
    try {
      fromPage = referer !== undefined && new URL(referer).pathname === pagePath;
    } catch {
      fromPage = false;
    }
    if (!fromPage || c.req.header('sec-fetch-dest') !== 'iframe') return;
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set('X-Frame-Options', 'DENY');
    c.res.headers.set('Content-Security-Policy', "frame-ancestors 'none'");
  };
}

export function createDemoApp(options: DemoOptions) {
  const adminHeaders = () => ({ authorization: `Bearer ${options.adminToken}`, accept: 'application/json' });

  /** Relays a backend answer to the browser: status, JSON body and content type only. */
  const relay = async (response: Response) =>
    new Response(await response.text(), {
      status: response.status,
      headers: { 'content-type': response.headers.get('content-type') ?? 'application/json' },
    });

  /** The catalog's first product, for the examples that need one (none: the element shows its not-found state). */
  let firstProduct: string | undefined;
  const exampleProduct = async () => {
    if (firstProduct) return firstProduct;
    try {
      const response = await fetch(`${options.backendUrl()}/api/products`);
      const body = (await response.json()) as { products?: Array<{ id: string }> };
      firstProduct = body.products?.[0]?.id;
    } catch {
      // The backend is the same process; if it cannot answer, the example shows the element's own error.
    }
    return firstProduct ?? '';
  };
  /** A page of the demo, with the storefront's headers (the sandbox's and the backend's pages have their own). */
  const page = (c: Context, markup: string) => c.html(markup, 200, options.pageHeaders);

  const examplePage = (file: string) => async (c: Context) =>
    page(
      c,
      await renderPage(file, options.mode, {
        productId: await exampleProduct(),
        origin: new URL(c.req.url).origin,
      }),
    );

  const app = new Hono()
    // Pages
    .get('/', async (c) => page(c, await renderPage('shop', options.mode)))
    .get('/products/:id', async (c) => {
      const requested = c.req.query('display') ?? 'auto';
      const display = displayModes.includes(requested) ? requested : 'auto';
      return page(c, await renderPage('product', options.mode, { productId: c.req.param('id'), display }));
    })
    .get('/thank-you', async (c) => page(c, await renderPage('thank-you', options.mode)))
    .get('/buy', async (c) => page(c, await renderPage('buy', options.mode)))
    .get('/sell', async (c) => page(c, await renderPage('sell', options.mode)))
    .get('/deposit', async (c) => {
      // A merchant knows who is logged in; the demo stands in a cookie for that.
      let customerId = getCookie(c, customerCookie);
      if (!customerId || !/^cust_[\w-]{4,40}$/.test(customerId)) {
        customerId = `cust_${randomUUID().slice(0, 12)}`;
        setCookie(c, customerCookie, customerId, {
          httpOnly: true,
          sameSite: 'Lax',
          path: '/',
          maxAge: 60 * 60 * 24 * 365,
        });
      }
      const customerToken = createCustomerToken(
        { customerId, name: 'Demo customer', expiresInSeconds: 60 * 60 },
        options.tokenSecret,
      );
      return page(c, await renderPage('deposit', options.mode, { customerId, customerToken }));
    })
    // The demo's Orders page gave way to the backend's merchant console (docs/console.md).
    .get('/orders', (c) => {
      const id = c.req.query('searchId');
      return c.redirect(id ? `/console#/orders/${encodeURIComponent(id)}` : '/console', 301);
    })
    .get('/theming', async (c) => page(c, await renderPage('theming', options.mode)))
    .get('/embed', examplePage('embed'))
    .get('/embed/script-tag', examplePage('embed-script-tag'))
    .get('/embed/npm', examplePage('embed-npm'))
    .get('/embed/custom-amount', examplePage('embed-custom-amount'))
    .get('/embed/blocked-frame', examplePage('embed-blocked-frame'))
    // Assets: the bundled page scripts (demo/dist) and the stylesheet and images (demo/public)
    .use(
      '/assets/*',
      serveStatic({ root: distDir, rewriteRequestPath: (path) => path.replace(/^\/assets/, '') }),
    )
    .use(
      '/assets/*',
      serveStatic({
        root: join(demoDir, 'public'),
        rewriteRequestPath: (path) => path.replace(/^\/assets/, ''),
      }),
    )
    // The merchant's server side
    .post('/demo-api/checkout-tokens', async (c) => {
      const parsed = tipSchema.safeParse(await c.req.json().catch(() => ({})));
      if (!parsed.success) {
        return c.json(
          { error: { code: 'VALIDATION_FAILED', message: parsed.error.issues[0]?.message } },
          422,
        );
      }
      // The name and the bounds are the merchant's; the shopper only picks the amount of a tip.
      const token = createCheckoutToken(
        {
          name: 'Tip the workshop',
          description: 'Pay what you want: every tip goes to the people who make our goods.',
          price: parsed.data.amount,
          currency: parsed.data.currency,
          reference: `tip-${randomUUID().slice(0, 8)}`,
          expiresInSeconds: 30 * 60,
        },
        options.tokenSecret,
      );
      return c.json({ token });
    })
    .get('/demo-api/order-status/:id', async (c) => {
      // The thank-you page's fallback when it has no status token (e.g. the payer came back in a new tab):
      // the merchant's server looks the order up with its admin token and tells only its status.
      const id = c.req.param('id');
      if (!/^[A-Za-z0-9_-]{4,64}$/.test(id)) return c.json({ error: { code: 'NOT_FOUND' } }, 404);
      const response = await fetch(
        `${options.backendUrl()}/api/admin/upstream-orders?${new URLSearchParams({ searchId: id, limit: '10' })}`,
        { headers: adminHeaders() },
      );
      if (!response.ok) return relay(response);
      const body = (await response.json()) as { orders?: AdminOrder[] };
      const order = body.orders?.find((o) => o.id === id || o.externalId === id);
      if (!order) return c.json({ error: { code: 'NOT_FOUND', message: 'No such order' } }, 404);
      // Only what the payer may see: no internal note, no customer data.
      return c.json({
        orderId: id,
        upstreamId: order.id,
        status: order.status ?? null,
        final: ['paid', 'overpaid', 'expired', 'failed'].includes(order.status ?? ''),
        name: order.purchase?.name ?? undefined,
        amount: order.purchase?.price ?? undefined,
        currency: typeof order.purchase?.currency === 'string' ? order.purchase.currency : undefined,
        paid: order.paid ?? null,
      });
    });
  return app;
}
