/**
 * The hosted ramp widget: `/ramp/` (buy) and `/ramp/sell` accept signed widget URLs (facts.md §3), render the
 * flow page, and back its steps with small JSON routes that create ramp orders and move them on. Also serves the
 * payment-method logos the ramp API links to.
 */
import { zValidator } from '@hono/zod-validator';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { type Country, countries, findCountry, findCrypto, findFiat, findPayoutMethod } from './catalog.ts';
import { rampFail, rampOk } from './envelope.ts';
import type { BuyQuote, SellQuote } from './quotes.ts';
import { iconSvg } from './ramp-icons.ts';
import { type RampOrder, type RampSession, rampStoreKey } from './ramp-orders.ts';
import { type Priced, priceBuy, priceSell, resolvePaymentMethod } from './ramp-pricing.ts';
import { widgetErrorPage, widgetPage } from './ramp-widget-page.ts';
import type { SandboxState } from './state.ts';
import { verifyWidgetUrl } from './widget-signature.ts';

const flag = z
  .string()
  .transform((value) => ['true', '1', 'yes'].includes(value.toLowerCase()))
  .optional();
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional();
const decimals = (places: number, message: string) =>
  z
    .string()
    .regex(new RegExp(`^\\d+(\\.\\d{1,${places}})?$`), message)
    .transform(Number)
    .refine((value) => value > 0, 'must be more than 0')
    .optional();
const country = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'must be a 2-letter country code')
  .optional();

const common = {
  apiKey: z.string(),
  email: z.email().optional(),
  externalCustomerId: z.string().max(200).optional(),
  redirectUrl: httpUrl,
  responseUrl: httpUrl,
  baseCountry: country,
  language: z.string().max(10).optional(),
  lockAmount: flag,
  markup: z.coerce.number().min(0, 'must be between 0 and 5').max(5, 'must be between 0 and 5').optional(),
};

const buyParams = z.object({
  ...common,
  currencyCode: z.string({ error: 'is required' }).min(1, 'is required'),
  walletAddress: z.string({ error: 'is required' }).min(1, 'is required'),
  method: z.string().optional(),
  baseCurrencyCode: z.string().optional(),
  baseCurrencyAmount: decimals(2, 'at most 2 decimals'),
  quoteCurrencyAmount: decimals(6, 'at most 6 decimals'),
  lockBaseCurrency: flag,
  destinationTag: z.string().max(64).optional(),
});

const sellParams = z.object({
  ...common,
  method: z.string().optional(),
  fiatCurrencyCode: z.string().optional(),
  cryptoCurrencyCode: z.string().optional(),
  /** The older name of cryptoCurrencyCode. */
  currencyCode: z.string().optional(),
  cryptoCurrencyAmount: decimals(18, 'must be a positive number'),
  fiatCurrencyAmount: decimals(2, 'at most 2 decimals'),
  userSendsFunds: flag,
});

const quoteBody = z.object({
  fiatAmount: z.number().positive().finite().optional(),
  cryptoAmount: z.number().positive().finite().optional(),
  method: z.string().min(1).optional(),
});

const orderBody = quoteBody.omit({ method: true }).extend({ email: z.email('Enter a valid email address') });

/** The country a fiat defaults to when no baseCountry is given: Germany for the euro, else its home country. */
function countryOfCurrency(fiatIso: string): Country | undefined {
  const iso = fiatIso.toUpperCase();
  return iso === 'EUR' ? findCountry('DE') : countries.find((c) => c.currency === iso);
}

/** Picks the address for `code` out of `SYMBOL:addr,SYMBOL:addr`, or takes a single address as it is. */
function walletFor(walletAddress: string, code: string): string | undefined {
  if (!walletAddress.includes(',') && !/^[A-Za-z0-9_]+:/.test(walletAddress)) return walletAddress;
  for (const entry of walletAddress.split(',')) {
    const split = entry.indexOf(':');
    if (split > 0 && entry.slice(0, split).toUpperCase() === code.toUpperCase())
      return entry.slice(split + 1);
  }
  return undefined;
}

const issueText = (error: { issues: readonly z.core.$ZodIssue[] }) => {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'parameters'}: ${issue.message}` : 'Invalid parameters';
};

type SessionDraft = Omit<RampSession, 'id'>;
type Draft = { ok: true; session: SessionDraft } | { ok: false; message: string };

function buyDraft(merchantId: string, params: URLSearchParams): Draft {
  const parsed = buyParams.safeParse(Object.fromEntries(params));
  if (!parsed.success) return { ok: false, message: issueText(parsed.error) };
  const p = parsed.data;
  const crypto = findCrypto(p.currencyCode);
  if (!crypto) return { ok: false, message: `Unsupported currencyCode: ${p.currencyCode}` };
  const wallet = walletFor(p.walletAddress, p.currencyCode);
  if (!wallet) return { ok: false, message: `walletAddress has no address for ${p.currencyCode}` };
  const region =
    findCountry(p.baseCountry) ??
    (p.baseCurrencyCode ? countryOfCurrency(p.baseCurrencyCode) : undefined) ??
    findCountry('DE')!;
  const fiat = findFiat(p.baseCurrencyCode ?? region.currency);
  if (!fiat) return { ok: false, message: `Unsupported baseCurrencyCode: ${p.baseCurrencyCode}` };
  return {
    ok: true,
    session: {
      merchantId,
      type: 'buy',
      crypto,
      fiat,
      region: region.iso,
      method: p.method ?? 'creditcard',
      walletAddress: wallet,
      destinationTag: p.destinationTag,
      email: p.email,
      externalCustomerId: p.externalCustomerId,
      redirectUrl: p.redirectUrl,
      responseUrl: p.responseUrl,
      markup: p.markup,
      // Fiat wins when both amounts are given, as in the pricing API; about 50 EUR when neither is.
      fiatAmount:
        p.baseCurrencyAmount ?? (p.quoteCurrencyAmount === undefined ? Math.round(50 / fiat.eur) : undefined),
      cryptoAmount: p.baseCurrencyAmount === undefined ? p.quoteCurrencyAmount : undefined,
      lockAmount: p.lockAmount ?? false,
      language: p.language ?? 'EN',
    },
  };
}

function sellDraft(merchantId: string, params: URLSearchParams): Draft {
  const parsed = sellParams.safeParse(Object.fromEntries(params));
  if (!parsed.success) return { ok: false, message: issueText(parsed.error) };
  const p = parsed.data;
  const code = p.cryptoCurrencyCode ?? p.currencyCode ?? 'BTC';
  const crypto = findCrypto(code);
  if (!crypto) return { ok: false, message: `Unsupported cryptoCurrencyCode: ${code}` };
  const method = findPayoutMethod(p.method ?? 'bank-transfer');
  if (!method) return { ok: false, message: `Invalid payout method: ${p.method}` };
  const region = findCountry(p.baseCountry);
  const fiatIso =
    p.fiatCurrencyCode ??
    (region && method.currency.includes(region.currency) ? region.currency : method.currency[0]);
  const fiat = findFiat(fiatIso);
  if (!fiat) return { ok: false, message: `Unsupported fiatCurrencyCode: ${fiatIso}` };
  return {
    ok: true,
    session: {
      merchantId,
      type: 'sell',
      crypto,
      fiat,
      region: region?.iso ?? '',
      method: method.slug,
      walletAddress: undefined,
      destinationTag: undefined,
      email: p.email,
      externalCustomerId: p.externalCustomerId,
      redirectUrl: p.redirectUrl,
      responseUrl: p.responseUrl,
      markup: p.markup,
      // Crypto wins when both are given (the off-ramp docs say so); about 100 EUR when neither is.
      cryptoAmount: p.cryptoCurrencyAmount,
      fiatAmount:
        p.cryptoCurrencyAmount === undefined
          ? (p.fiatCurrencyAmount ?? Math.round(100 / fiat.eur))
          : undefined,
      lockAmount: p.lockAmount ?? false,
      language: p.language ?? 'EN',
    },
  };
}

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
