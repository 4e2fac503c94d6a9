/**
 * A country's catalog from the ramp's lists (pure): its countries, fiats and cryptos, the methods it offers
 * (enabled, one per id, default first), each method's fixed fee and limits in the currencies it takes, and the
 * defaults the widget starts from.
 */
import { amountString, decimal, ratioString } from '../money.ts';
import { totalLimits } from '../quotes/totals.ts';
import { depositChains, networkName } from '../schemas/chains.ts';
import type { RampMethod, RampSupported } from '../schemas/upstream-ramp.ts';
import type { Catalog, Method } from './schemas.ts';

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
export type CatalogSources = readonly [RampSupported, readonly RampMethod[], readonly RampMethod[]];

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
