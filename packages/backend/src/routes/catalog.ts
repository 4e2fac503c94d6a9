/** `GET /api/catalog`: what the widget can offer a shopper in their country, normalised from the ramp catalog. */
import { createHash } from 'node:crypto';
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { amountString, decimal, ratioString } from '../money.ts';
import { errorResponses, jsonResponse, openApiRoutes } from '../openapi.ts';
import { type Precompressed, precompress, sendPrecompressed, varyOnEncoding } from '../precompressed.ts';
import { totalLimits } from '../quotes/totals.ts';
import { depositChains, networkName } from '../schemas/chains.ts';
import { countryCode } from '../schemas/codes.ts';
import type { RampMethod, RampSupported } from '../schemas/upstream-ramp.ts';

const termsSchema = z
  .object({
    currency: z.string(),
    fixedFee: z.string().describe("The method's fixed fee in `currency`"),
    min: z
      .string()
      .nullable()
      .describe('The least total a shopper can type in `currency`: buy, pay; sell, receive (fees inside)'),
    max: z.string().nullable().describe('The most total a shopper can type in `currency` (fees inside)'),
    converted: z
      .boolean()
      .describe('The figures were converted from EUR at a current rate: approximate (show them with ≈)'),
  })
  .meta({ id: 'MethodTerms' });

export const methodSchema = z
  .object({
    id: z.string().describe('Payment group (buy) or payout slug (sell): what quotes and ramp sessions take'),
    name: z.string(),
    feePercent: z.string(),
    fixedFee: z.string().describe('EUR'),
    min: z.string().nullable().describe('EUR'),
    max: z.string().nullable().describe('EUR'),
    limits: z.object({ currency: z.literal('EUR'), min: z.string().nullable(), max: z.string().nullable() }),
    terms: z
      .array(termsSchema)
      .describe('The fixed fee and limits in each currency the method takes that a rate is known for'),
    currencies: z.array(z.string()),
    icon: z.string().nullable(),
    iconLight: z.string().nullable(),
    isDefault: z.boolean(),
  })
  .meta({ id: 'Method' });
export type Method = z.infer<typeof methodSchema>;

const countrySchema = z
  .object({ code: z.string(), name: z.string(), currency: z.string() })
  .meta({ id: 'Country' });
const fiatSchema = z.object({ code: z.string(), name: z.string() }).meta({ id: 'Fiat' });
const cryptoSchema = z
  .object({
    code: z.string(),
    symbol: z.string(),
    name: z.string(),
    network: z.string(),
    networkName: z.string(),
    type: z.enum(['token', 'coin']),
    networkFee: z.string().describe('EUR'),
    icon: z.string().nullable(),
  })
  .meta({ id: 'Crypto' });
const chainSchema = z.object({ id: z.string(), name: z.string() }).meta({ id: 'Chain' });

export const catalogSchema = z
  .object({
    country: z.string(),
    countries: z.array(countrySchema),
    fiats: z.array(fiatSchema),
    cryptos: z.array(cryptoSchema),
    paymentMethods: z.array(methodSchema),
    payoutMethods: z.array(methodSchema),
    chains: z.array(chainSchema),
    defaults: z.object({
      country: z.string(),
      fiat: z.string(),
      crypto: z.string(),
      paymentMethod: z.string().nullable(),
      payoutMethod: z.string().nullable(),
    }),
  })
  .meta({ id: 'Catalog' });
export type Catalog = z.infer<typeof catalogSchema>;

export const catalogQuery = z.object({
  country: countryCode.optional().describe('ISO 3166 alpha-2; else taken from request headers'),
});

const catalogRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['Ramp'],
  summary: 'Countries, currencies and the payment and payout methods of a country',
  description:
    'The country comes from `?country`, else the `cf-ipcountry`, `x-vercel-ip-country`, `x-country` or ' +
    '`accept-language` headers, else DEFAULT_COUNTRY. Methods are those of that country only. ETag, ' +
    'max-age=60, brotli/gzip by Accept-Encoding (compressed once per build of the catalog).',
  request: { query: catalogQuery },
  responses: {
    200: jsonResponse(catalogSchema, 'The catalog'),
    304: { description: 'Not modified (If-None-Match)' },
    ...errorResponses('VALIDATION_FAILED', 'UPSTREAM_ERROR', 'UPSTREAM_BUSY', 'UPSTREAM_TIMEOUT'),
  },
});

const isCountry = (value: string | undefined): value is string => !!value && /^[A-Za-z]{2}$/.test(value);

/**
 * The shopper's country from request headers: CDN geolocation first (`cf-ipcountry`, `x-vercel-ip-country`,
 * `x-country`), then the region of the first `accept-language` tag that has one. Cloudflare's `XX`/`T1`
 * (unknown, Tor) are not countries.
 */
export function countryFromHeaders(c: Context): string | undefined {
  for (const name of ['cf-ipcountry', 'x-vercel-ip-country', 'x-country']) {
    const value = c.req.header(name)?.trim().toUpperCase();
    if (isCountry(value) && value !== 'XX' && value !== 'T1') return value;
  }
  for (const tag of (c.req.header('accept-language') ?? '').split(',')) {
    const region = /^[a-z]{2,3}[-_]([a-z]{2})\b/i.exec(tag.trim().split(';')[0] ?? '')?.[1];
    if (region) return region.toUpperCase();
  }
  return undefined;
}

/** What converts a method's EUR figures: the rates known per fiat, and the markup (part of every total). */
export interface Pricing {
  fx(fiat: string): { eurPerUnit: number } | undefined;
  markup: number;
}

/**
 * A method's fixed fee and limits in each currency it takes (quotes/totals.ts): limits as totals the shopper
 * types, the least rounded up and the most down; figures other than EUR's are converted, so approximate.
 */
function termsOf(method: RampMethod, side: 'buy' | 'sell', pricing: Pricing): Method['terms'] {
  return method.currencies.flatMap((currency) => {
    const rate = pricing.fx(currency)?.eurPerUnit;
    if (!rate) return [];
    const eurPerUnit = decimal(rate);
    const { min, max } = totalLimits(side, method, currency, eurPerUnit, pricing.markup);
    const listed = method.fixedFeeByCurrency[currency];
    return [
      {
        currency,
        fixedFee: amountString(listed ?? decimal(method.fixedFeeEur).div(eurPerUnit), currency),
        min: min && amountString(min, currency, { mode: 'up' }),
        max: max && amountString(max, currency, { mode: 'down' }),
        converted: currency !== 'EUR',
      },
    ];
  });
}

/** A ramp method as API.md's `Method`; `id` is the group for buy and the slug for sell. */
export function toMethod(method: RampMethod, side: 'buy' | 'sell', pricing?: Pricing): Method {
  const min = method.minEur === null ? null : amountString(method.minEur, 'EUR');
  const max = method.maxEur === null ? null : amountString(method.maxEur, 'EUR');
  return {
    id: side === 'buy' ? method.group : method.slug,
    name: method.name,
    feePercent: ratioString(method.feePercent, 4),
    fixedFee: amountString(method.fixedFeeEur, 'EUR'),
    min,
    max,
    limits: { currency: 'EUR', min, max },
    terms: pricing ? termsOf(method, side, pricing) : [],
    currencies: method.currencies,
    icon: method.icon,
    iconLight: method.iconLight,
    isDefault: method.isDefault,
  };
}

/** Enabled methods, one per id (a group may have several slugs), default first, then the upstream's order. */
export function offered(methods: readonly RampMethod[], side: 'buy' | 'sell', pricing?: Pricing): Method[] {
  const byId = new Map<string, Method>();
  const sorted = methods
    .filter((method) => !method.disabled)
    .sort(
      (a, b) =>
        Number(b.isDefault) - Number(a.isDefault) ||
        (a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER),
    );
  for (const method of sorted) {
    const normalised = toMethod(method, side, pricing);
    if (!byId.has(normalised.id)) byId.set(normalised.id, normalised);
  }
  return [...byId.values()];
}

/** `USDC_BASE` → `USDC`; bare codes stay. */
const symbolOf = (code: string) => code.split('_')[0] ?? code;

function cryptosOf(supported: RampSupported): Catalog['cryptos'] {
  return supported.supported_cryptos.map((crypto) => {
    const network = (crypto.network ?? '').toLowerCase();
    return {
      code: crypto.iso,
      symbol: crypto.symbol ?? symbolOf(crypto.iso),
      name: crypto.name ?? crypto.iso,
      network,
      networkName: crypto.network_name ?? networkName(network),
      type: crypto.type === 'token' ? 'token' : 'coin',
      networkFee: amountString(crypto.network_fee ?? 0, 'EUR'),
      icon: crypto.img_url ?? crypto.icon ?? null,
    };
  });
}

/** The preferred default crypto: a cheap stablecoin the checkout is built around, else the first listed. */
const preferredCryptos = ['USDC_BASE', 'USDC_POLYGON', 'USDC_SOLANA', 'ETH', 'BTC'];

/** The upstream lists a country's catalog is made of; the same objects until the ramp client refreshes them. */
type CatalogSources = readonly [RampSupported, readonly RampMethod[], readonly RampMethod[]];

const catalogSources = (deps: AppDeps, country: string): Promise<CatalogSources> =>
  Promise.all([deps.ramp.supported(), deps.ramp.paymentMethods(country), deps.ramp.payoutMethods(country)]);

/** A country's catalog from the upstream lists (pure). */
export function assembleCatalog(
  country: string,
  [supported, payment, payout]: CatalogSources,
  pricing?: Pricing,
): Catalog {
  const countries = supported.supported_countries.map((entry) => ({
    code: entry.iso.toUpperCase(),
    name: entry.name ?? entry.iso,
    currency: (entry.currency ?? 'EUR').toUpperCase(),
  }));
  const fiats = supported.supported_fiats.map((entry) => ({
    code: entry.iso.toUpperCase(),
    name: entry.name ?? entry.iso,
  }));
  const cryptos = cryptosOf(supported);
  const paymentMethods = offered(payment, 'buy', pricing);
  const payoutMethods = offered(payout, 'sell', pricing);
  const home = countries.find((entry) => entry.code === country);
  // The country's own currency when its methods take it; else the first currency its default method takes.
  const firstMethod = paymentMethods[0];
  const fiat =
    home && (!firstMethod || firstMethod.currencies.includes(home.currency))
      ? home.currency
      : (firstMethod?.currencies[0] ?? home?.currency ?? 'EUR');
  const codes = new Set(cryptos.map((crypto) => crypto.code));
  return {
    country,
    countries,
    fiats,
    cryptos,
    paymentMethods,
    payoutMethods,
    chains: depositChains.map((chain) => ({ id: chain.id, name: chain.name })),
    defaults: {
      country,
      fiat,
      crypto: preferredCryptos.find((code) => codes.has(code)) ?? cryptos[0]?.code ?? 'USDC_BASE',
      paymentMethod: paymentMethods[0]?.id ?? null,
      payoutMethod: payoutMethods[0]?.id ?? null,
    },
  };
}

/** A country's catalog as sent: serialised once, with its ETag, for as long as its sources stay the same. */
interface RenderedCatalog {
  sources: CatalogSources;
  /** The ramp client's `fxVersion` when the methods' terms were converted. */
  fxVersion: number;
  /** The JSON, and compressed once here: it is the first thing every widget downloads (its time: bench `ttfq`). */
  body: Precompressed;
  etag: string;
  /** Whether the ramp serves the country (else a header-derived country falls back to the default). */
  served: boolean;
}

/** Enough for every country the ramp serves; past it (someone walking `?country=AA…ZZ`) the memo starts over. */
const MAX_RENDERED = 300;

/** Whether `If-None-Match` names this ETag (weak comparison, as RFC 9110 asks for GET). */
function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === etag;
  });
}

export function catalogRoutes(deps: AppDeps) {
  // The catalog is the first thing every widget asks for, and it only changes when the ramp client refreshes
  // its upstream lists (minutes). So each country's response is built and serialised once per refresh and
  // served as a string; a refresh brings new source objects, which is what invalidates the entry.
  const rendered = new Map<string, RenderedCatalog>();
  const pricing: Pricing = { fx: (fiat) => deps.ramp.fx(fiat), markup: deps.config.markup };
  async function render(country: string): Promise<RenderedCatalog> {
    const sources = await catalogSources(deps, country);
    const hit = rendered.get(country);
    // Quotes reveal exact rates after the fee tables' rough ones, and rates move: the terms are converted again
    // when the ramp client says its rates have moved enough to show (a counter, so each request only compares).
    const fxVersion = deps.ramp.fxVersion();
    if (hit?.fxVersion === fxVersion && hit.sources.every((source, index) => source === sources[index]))
      return hit;
    const catalog = assembleCatalog(country, sources, pricing);
    const body = JSON.stringify(catalog);
    const entry: RenderedCatalog = {
      sources,
      fxVersion,
      body: precompress(body, 'fast'),
      etag: `"${createHash('sha1').update(body).digest('base64url')}"`, // a content tag, not a secret
      served: catalog.countries.some((entry) => entry.code === country),
    };
    if (rendered.size >= MAX_RENDERED) rendered.clear();
    rendered.set(country, entry);
    return entry;
  }

  // The body is the catalog serialised once (see above), sent as it is.
  return openApiRoutes().openapi(catalogRoute, async (c) => {
    const asked = c.req.valid('query').country;
    let catalog = await render(asked ?? countryFromHeaders(c) ?? deps.config.defaultCountry);
    // A header-derived country the ramp does not serve falls back to the configured default.
    if (!asked && !catalog.served) catalog = await render(deps.config.defaultCountry);
    // No shopper data in it, so shared caches may keep it; when the country came from headers, they must
    // key on those headers.
    c.header('Cache-Control', 'public, max-age=60');
    if (!asked)
      c.header('Vary', 'Accept-Language, CF-IPCountry, X-Vercel-IP-Country, X-Country', { append: true });
    c.header('ETag', catalog.etag);
    if (matchesEtag(c.req.header('if-none-match'), catalog.etag)) {
      varyOnEncoding(c);
      return c.body(null, 304);
    }
    return sendPrecompressed(c, catalog.body, { 'Content-Type': 'application/json' });
  });
}
