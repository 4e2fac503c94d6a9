/**
 * The ramp merchant API (`/api/v1/merchant/...`): quotes, payment and payout methods, supported lists and the
 * status of widget orders, behind the upstream's public-key auth and 100 req/s limit.
 */
import { zValidator } from '@hono/zod-validator';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { z } from 'zod';
import { rampFail, rampOk } from '../envelope.ts';
import { merchantOf } from '../keys.ts';
import type { SandboxState } from '../state.ts';
import {
  countries,
  cryptos,
  cryptoTags,
  type Fiat,
  fiats,
  findFiat,
  type MethodSpec,
  paymentMethods,
  payoutMethods,
} from './catalog.ts';
import { rampMerchantProfile } from './merchants.ts';
import { callbackOf, rampStoreKey } from './orders.ts';
import { type Priced, priceBuy, priceSell } from './pricing.ts';
import { baseFeeIn, type SellQuote } from './quote-math.ts';
import { RateLimiter } from './rate-limit.ts';

interface RampEnv {
  Variables: {
    /** The key as sent (body `api_key`/`apiKey`, or query `api_key`/`apiKey`), undefined when absent. */
    apiKey: string | undefined;
    /** The merchant id of a sandbox-form key; undefined when the key is absent or not a sandbox key. */
    merchantId: string | undefined;
  };
}

const keyFields = z.object({ api_key: z.string().optional(), apiKey: z.string().optional() });

const malformedBody = Symbol('malformed');

/** The key as sent, and whether a POST body was unreadable JSON (answered 400 once the rate limit has counted it). */
async function sentKey(c: Context): Promise<{ key: string | undefined; malformed: boolean }> {
  const fromQuery = c.req.query('api_key') ?? c.req.query('apiKey');
  if (c.req.method !== 'POST') return { key: fromQuery, malformed: false };
  // Hono caches the parsed body, so the validators after this read it again for free.
  const body: unknown = await c.req.json().catch(() => malformedBody);
  if (body === malformedBody) return { key: fromQuery, malformed: true };
  const keys = keyFields.safeParse(body);
  return {
    key: fromQuery ?? (keys.success ? (keys.data.api_key ?? keys.data.apiKey) : undefined),
    malformed: false,
  };
}

function identify(limiter: RateLimiter): MiddlewareHandler<RampEnv> {
  return async (c, next) => {
    const { key: apiKey, malformed } = await sentKey(c);
    const merchantId = merchantOf('rampPublic', apiKey);
    c.set('apiKey', apiKey);
    c.set('merchantId', merchantId);
    const decision = rampMerchantProfile(merchantId).alwaysRateLimited
      ? { allowed: false as const, retryAfterSeconds: 1 }
      : limiter.hit(merchantId ?? 'anonymous');
    if (!decision.allowed) {
      c.header('Retry-After', String(decision.retryAfterSeconds));
      return rampFail(c, 429, 'Too many requests');
    }
    if (malformed) return rampFail(c, 400, 'Malformed JSON in request body');
    await next();
  };
}

/** Refuses keys that are not of the sandbox form; `required` also refuses a missing key. */
function auth(required: boolean): MiddlewareHandler<RampEnv> {
  return async (c, next) => {
    const apiKey = c.get('apiKey');
    if (apiKey === undefined || apiKey === '') {
      if (required) return rampFail(c, 401, 'Missing apiKey');
    } else if (c.get('merchantId') === undefined) {
      return rampFail(c, 401, 'Invalid apiKey');
    }
    await next();
  };
}

/** Validation failures in the upstream's envelope, naming the first offending field. */
const validation = <T extends z.ZodType>(target: 'json' | 'query', schema: T) =>
  zValidator(target, schema, (result, c) => {
    if (result.success) return undefined;
    const issue = result.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    return rampFail(c, 400, field ? `${field}: ${issue?.message}` : (issue?.message ?? 'Invalid request'));
  });

const amount = z.number().positive().finite();
const code = z.string().trim().min(1);

/** What both pricing bodies carry besides the method. */
const quoteFields = {
  api_key: z.string().optional(),
  apiKey: z.string().optional(),
  region: z.string().trim().optional(),
  fiat_currency: code.optional(),
  fiat_amount: amount.optional(),
  crypto_currency: code,
  crypto_amount: amount.optional(),
  markup: z.number().finite().optional(),
};

const pricingBody = z.object({ payment_method: code, ...quoteFields });

/** `region` is a sandbox extra here: when sent, the payout method must be available there. */
const sellPricingBody = z.object({ payout_method: code, ...quoteFields });

const countryFilter = z.object({
  slug: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be a 2-letter country code')
    .optional(),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be a 2-letter country code')
    .optional(),
});

const statusBody = z.object({
  order_id: code,
  api_key: z.string().optional(),
  apiKey: z.string().optional(),
});

export function rampApi(state: SandboxState) {
  const ramp = state.part(rampStoreKey);
  const limiter = new RateLimiter(
    () => state.settings.rampRateLimit,
    () => state.clock.monotonic(),
  );
  state.onReset(() => limiter.clear());

  const image = (icon: string, variant: '' | 'light') =>
    `${state.baseUrl}/ramp/images/payment/${icon}${variant}.svg`;

  function baseFee(method: MethodSpec): Record<string, number | string> | null {
    switch (method.baseFeeShape) {
      case 'base_fee-key':
        return { base_fee: method.baseFeeEur };
      case 'null':
        return null;
      default:
        return Object.fromEntries([
          ...method.currency
            .map((iso) => findFiat(iso))
            .filter((fiat): fiat is Fiat => fiat !== undefined)
            .map((fiat) => [fiat.iso, baseFeeIn(method, fiat)]),
          ...(state.settings.baseFeeJunkEntry ? [['XXX', 'n/a']] : []),
        ]);
    }
  }

  /**
   * A method as the upstream lists it. Payout methods have no `payment_group`; `min_fee`, `kyc_required` and
   * `order` appear only on the methods that carry them, as in the live data.
   */
  const methodView = (method: MethodSpec & { payment_group?: string }) => ({
    id: method.id,
    name: method.name,
    fee: method.fee,
    slug: method.slug,
    default: method.default,
    currency: method.currency,
    base_fee: baseFee(method),
    disabled: method.disabled,
    ...(method.min_fee !== undefined ? { min_fee: method.min_fee } : {}),
    min_amount: method.min_amount,
    max_amount: method.max_amount,
    ...(method.payment_group !== undefined ? { payment_group: method.payment_group } : {}),
    img_url: image(method.icon, ''),
    img_url_light: image(method.icon, 'light'),
    ...(method.kyc_required !== undefined ? { kyc_required: method.kyc_required } : {}),
    ...(method.order !== undefined ? { order: method.order } : {}),
  });

  /**
   * A method list as the upstream serves it: one country's methods as an array when a country is asked for,
   * else keyed by country (countries without a method left out) or, when `flat`, one list.
   */
  function listing(methods: readonly MethodSpec[], country: string | undefined, flat: boolean) {
    const only = country?.toUpperCase();
    if (only) return methods.filter((m) => m.countries.includes(only)).map(methodView);
    if (flat) return methods.map(methodView);
    const grouped: Record<string, ReturnType<typeof methodView>[]> = {};
    for (const { iso } of countries) {
      const available = methods.filter((m) => m.countries.includes(iso));
      if (available.length > 0) grouped[iso] = available.map(methodView);
    }
    return grouped;
  }

  /** The methods the merchant's dashboard has enabled: all of them unless its profile names some. */
  const enabled = <M extends MethodSpec>(
    all: readonly M[],
    names: readonly string[] | undefined,
    name: (m: M) => string,
  ) => (names ? all.filter((m) => names.includes(name(m))) : all);

  /** The fields both pricing bodies share, as the pricing functions take them; an empty region is none. */
  const requestOf = (c: Context<RampEnv>, body: z.infer<z.ZodObject<typeof quoteFields>>) => ({
    merchantId: c.get('merchantId'),
    region: body.region || undefined,
    fiatCurrency: body.fiat_currency,
    cryptoCurrency: body.crypto_currency,
    fiatAmount: body.fiat_amount,
    cryptoAmount: body.crypto_amount,
    markup: body.markup,
    at: state.now(),
  });

  /** A sell quote in the shape the settings ask for (the documents allow each). */
  const sellShape = (quote: SellQuote): Partial<SellQuote> => {
    const toEur = quote.fiat_amount_incl_fees / quote.fiat_amount_incl_fees_local;
    const fees =
      state.settings.sellFeeCurrency === 'eur'
        ? {
            processing_fee: Math.round(quote.processing_fee * toEur * 100) / 100,
            markup_fiat_value: Math.round(quote.markup_fiat_value * toEur * 100) / 100,
          }
        : {};
    if (state.settings.sellQuoteFields === 'all') return { ...quote, ...fees };
    const { crypto_amount, crypto_currency, crypto_unit_price, network_fee, fiat_currency } = quote;
    const { fiat_amount_incl_fees, fiat_amount_excl_fees } = quote;
    return {
      crypto_amount,
      crypto_currency,
      crypto_unit_price,
      network_fee,
      fiat_amount_incl_fees,
      fiat_amount_excl_fees,
      fiat_currency,
    };
  };

  const answer = <T>(c: Context, priced: Priced<T>) =>
    priced.ok ? rampOk(c, priced.quote) : rampFail(c, priced.status, priced.message);

  return (
    new Hono<RampEnv>()
      .use('*', identify(limiter))
      .post('/pricing', auth(true), validation('json', pricingBody), (c) => {
        const body = c.req.valid('json');
        return answer(c, priceBuy({ ...requestOf(c, body), paymentGroup: body.payment_method }));
      })
      .post('/sell/pricing', auth(false), validation('json', sellPricingBody), (c) => {
        const body = c.req.valid('json');
        const priced = priceSell({ ...requestOf(c, body), payoutMethod: body.payout_method });
        return answer(c, priced.ok ? { ...priced, quote: sellShape(priced.quote) } : priced);
      })
      .get('/get_payment_methods', auth(false), validation('query', countryFilter), (c) => {
        const { country, slug } = c.req.valid('query');
        const groups = rampMerchantProfile(c.get('merchantId')).paymentGroups;
        const methods = enabled(paymentMethods, groups, (m) => m.payment_group);
        const only = state.settings.paymentMethodsCountryFilter === 'ignored' ? slug : (country ?? slug);
        return rampOk(c, listing(methods, only, state.settings.paymentMethodsShape === 'flat'));
      })
      // The payout list has no flat setting: its live shape is keyed by country
      // (docs/upstream.md#payout-methods).
      .get('/sell/get_payout_methods', auth(false), validation('query', countryFilter), (c) => {
        const { country, slug } = c.req.valid('query');
        const slugs = rampMerchantProfile(c.get('merchantId')).payoutSlugs;
        return rampOk(
          c,
          listing(
            enabled(payoutMethods, slugs, (m) => m.slug),
            slug ?? country,
            false,
          ),
        );
      })
      .get('/get_supported', auth(false), (c) => {
        const lists = {
          supported_fiats: fiats.map(({ iso, name }) => ({ iso, name })),
          supported_cryptos: cryptos.map((crypto) => ({
            id: crypto.id,
            name: crypto.name,
            iso: crypto.iso,
            type: crypto.type,
            network: crypto.network,
            network_fee: crypto.network_fee,
            tags: cryptoTags(crypto),
          })),
          supported_countries: countries.map(({ iso, name, currency }) => ({ iso, name, currency })),
        };
        if (state.settings.supportedShape === 'documented') return rampOk(c, lists);
        // A shape no document describes: the lists renamed, as an upstream release might.
        return rampOk(c, {
          fiats: lists.supported_fiats,
          cryptos: lists.supported_cryptos,
          countries: lists.supported_countries,
        });
      })
      .post('/get_status', auth(true), validation('json', statusBody), (c) => {
        const merchantId = c.get('merchantId')!;
        const order = ramp.order(c.req.valid('json').order_id, merchantId);
        if (!order) return rampFail(c, 404, 'Order not found');
        return rampOk(c, {
          ...callbackOf(order),
          transaction_id: order.transactionId,
          markup_fiat_value: order.quote.markup_fiat_value,
          processing_fee: order.quote.processing_fee,
        });
      })
      // A sub-app's notFound is not used once mounted, hence a catch-all for unknown merchant endpoints.
      .all('*', (c) => rampFail(c, 404, 'Not found'))
      .onError((error, c) => {
        if (error instanceof HTTPException && error.status < 500) {
          return rampFail(c, error.status, error.message || 'Bad request');
        }
        console.error('ramp API error', error);
        return rampFail(c, 500, 'Internal server error');
      })
  );
}
