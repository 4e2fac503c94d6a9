/**
 * The hosted ramp widget: `/ramp/` (buy) and `/ramp/sell` accept signed widget URLs
 * (docs/upstream.md#ramp-widget-url), render the flow page, and back its steps with small JSON routes that
 * create ramp orders and move them on. Also serves the payment-method logos the ramp API links to.
 */
import { zValidator } from '@hono/zod-validator';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { rampFail, rampOk } from '../../envelope.ts';
import type { SandboxState } from '../../state.ts';
import { findPayoutMethod } from '../catalog.ts';
import { iconSvg } from '../icons.ts';
import { type RampOrder, type RampSession, rampStoreKey } from '../orders.ts';
import { type Priced, priceBuy, priceSell, resolvePaymentMethod } from '../pricing.ts';
import type { BuyQuote, SellQuote } from '../quote-math.ts';
import { buyDraft, issueText, sellDraft } from './params.ts';
import { verifyWidgetUrl } from './signature.ts';
import { widgetErrorPage, widgetPage } from './view.ts';

const quoteBody = z.object({
  fiatAmount: z.number().positive().finite().optional(),
  cryptoAmount: z.number().positive().finite().optional(),
  method: z.string().min(1).optional(),
});

const orderBody = quoteBody.omit({ method: true }).extend({ email: z.email('Enter a valid email address') });
function quoteFor(session: RampSession, at: number): Priced<BuyQuote | SellQuote> {
  const amounts = { fiatAmount: session.fiatAmount, cryptoAmount: session.cryptoAmount };
  if (session.type === 'buy') {
    return priceBuy({
      merchantId: session.merchantId,
      paymentGroup: session.method,
      region: session.region,
      fiatCurrency: session.fiat.iso,
      cryptoCurrency: session.crypto.iso,
      markup: session.markup,
      at,
      ...amounts,
    });
  }
  return priceSell({
    merchantId: session.merchantId,
    payoutMethod: session.method,
    region: session.region || undefined,
    fiatCurrency: session.fiat.iso,
    cryptoCurrency: session.crypto.iso,
    markup: session.markup,
    at,
    ...amounts,
  });
}

/** `{orderId}` / `{orderStatus}` filled in, whether the merchant encoded the URL once or twice. */
function redirectFor(order: RampOrder): string | undefined {
  if (!order.redirectUrl) return undefined;
  const id = encodeURIComponent(order.id);
  const status = encodeURIComponent(order.status);
  return order.redirectUrl
    .replaceAll('{orderId}', id)
    .replaceAll('%7BorderId%7D', id)
    .replaceAll('{orderStatus}', status)
    .replaceAll('%7BorderStatus%7D', status);
}

/** The amount a widget step asks for, replacing the session's (crypto wins when both are sent). */
function amountOf(body: { fiatAmount?: number | undefined; cryptoAmount?: number | undefined }) {
  if (body.cryptoAmount !== undefined) return { cryptoAmount: body.cryptoAmount, fiatAmount: undefined };
  if (body.fiatAmount !== undefined) return { fiatAmount: body.fiatAmount, cryptoAmount: undefined };
  return {};
}

const orderView = (order: RampOrder) => ({ id: order.id, status: order.status, type: order.type });

export function rampWidget(state: SandboxState) {
  const ramp = state.part(rampStoreKey);

  const json = <T extends z.ZodType>(schema: T) =>
    zValidator('json', schema, (result, c) =>
      result.success ? undefined : rampFail(c, 400, issueText(result.error)),
    );

  function page(type: RampSession['type']) {
    return (c: Context) => {
      const verified = verifyWidgetUrl(c.req.url);
      if (!verified.ok) return c.html(widgetErrorPage('Widget URL refused', verified.message), 403);
      const draft = (type === 'buy' ? buyDraft : sellDraft)(verified.merchantId, verified.params);
      if (!draft.ok) return c.html(widgetErrorPage('Invalid widget parameters', draft.message), 400);
      const priced = quoteFor({ ...draft.session, id: '' }, state.now());
      // Amount problems are the customer's to fix on the page; anything else is the integration's mistake.
      if (!priced.ok && !priced.message.startsWith('Amount') && priced.status < 500) {
        return c.html(widgetErrorPage('Invalid widget parameters', priced.message), 400);
      }
      const session = ramp.openSession(draft.session);
      const method =
        type === 'buy'
          ? resolvePaymentMethod(session.method, session.region)
          : findPayoutMethod(session.method);
      const prefix = c.req.path.replace(/\/sell\/?$/, '').replace(/\/$/, '');
      return c.html(
        widgetPage({
          session,
          prefix,
          method: { name: method?.name ?? session.method, icon: method?.icon ?? 'creditcard' },
          quote: priced.ok ? priced.quote : undefined,
          quoteError: priced.ok ? undefined : priced.message,
        }),
      );
    };
  }

  return (
    new Hono()
      .get('/images/payment/:file', (c) => {
        const svg = iconSvg(c.req.param('file').replace(/\.svg$/, ''));
        if (!svg) return c.notFound();
        return c.body(svg, 200, {
          'content-type': 'image/svg+xml',
          'cache-control': 'public, max-age=86400',
        });
      })
      // Mounted at /ramp, '/' only matches "/ramp"; the regex route takes "/ramp/", the form the docs use.
      .get('/', page('buy'))
      .get('/:slash{/?}', page('buy'))
      .get('/sell', page('sell'))
      .get('/sell/', page('sell'))
      .post('/sessions/:id/quote', json(quoteBody), (c) => {
        const session = ramp.session(c.req.param('id'));
        if (!session) return rampFail(c, 404, 'Session not found');
        const body = c.req.valid('json');
        const next = { ...session, ...amountOf(body) };
        if (body.method && session.type === 'buy') next.method = body.method;
        const priced = quoteFor(next, state.now());
        if (!priced.ok) return rampFail(c, priced.status, priced.message);
        if (!session.lockAmount) Object.assign(session, next);
        return rampOk(c, priced.quote);
      })
      .post('/sessions/:id/orders', json(orderBody), (c) => {
        const session = ramp.session(c.req.param('id'));
        if (!session) return rampFail(c, 404, 'Session not found');
        const body = c.req.valid('json');
        if (!session.lockAmount) Object.assign(session, amountOf(body));
        const priced = quoteFor(session, state.now());
        if (!priced.ok) return rampFail(c, priced.status, priced.message);
        const order = ramp.createOrder(session, priced.quote, body.email);
        return rampOk(c, {
          order: orderView(order),
          quote: priced.quote,
          orderData: {
            order_id: order.id,
            address: order.address,
            amount: String(priced.quote.crypto_amount),
            crypto: order.crypto.symbol,
            network: order.crypto.network,
            timestamp: state.now(),
            ...(order.tag ? { memo: order.tag } : {}),
          },
        });
      })
      .post('/orders/:id/:action{complete|cancel}', (c) => {
        const order = ramp.order(c.req.param('id'));
        if (!order) return rampFail(c, 404, 'Order not found');
        const target =
          c.req.param('action') === 'cancel'
            ? 'order_cancelled'
            : order.type === 'buy'
              ? 'order_completed'
              : 'payout_pending';
        const moved = ramp.transition(order, target);
        if (!moved.ok) return rampFail(c, 409, moved.message);
        return rampOk(c, { order: orderView(order), redirect: redirectFor(order) ?? null });
      })
  );
}
