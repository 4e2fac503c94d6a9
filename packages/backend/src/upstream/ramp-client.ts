/**
 * The ramp API client (docs/upstream.md#ramp-api): its calls, each through the shared upstream budget (upstream/http.ts),
 * with the catalog reads cached and refreshed in the background and identical quotes joined and kept a few
 * seconds (both in `lru-cache`). What the answers report is told to `reports` (quotes/fx.ts learns exchange rates from it); a
 * country's methods are read from the lists in upstream/ramp-methods.ts; widget URLs are signed in
 * upstream/widget-url.ts with the secret key, which goes no further than this client.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import { type LogLine, logger } from '../logger.ts';
import { toNumber } from '../money.ts';
import {
  buyQuoteData,
  type MethodsByCountry,
  methodsData,
  type RampBuyQuote,
  type RampMethod,
  type RampSellQuote,
  type RampSupported,
  sellQuoteData,
  supportedData,
} from '../schemas/upstream-ramp.ts';
import type { SharedCache } from '../shared/redis.ts';
import type { Budget, BudgetStats } from './budget.ts';
import { createDriftLog, type DriftEntry } from './drift.ts';
import { createUpstreamHttp, envelope, type UpstreamHttp, type UpstreamObserver } from './http.ts';
import { createCountryMethods, NO_COUNTRY, sameMethods, uniqueBySlug } from './ramp-methods.ts';
import { createRegionChecks } from './region-checks.ts';
import { signedWidgetUrl, type WidgetParams, type WidgetSide } from './widget-url.ts';

export type { WidgetSide } from './widget-url.ts';

export interface BuyQuoteRequest {
  /** A payment group (`creditcard`); the upstream resolves the slug for the region. */
  method: string;
  region: string;
  fiat: string;
  crypto: string;
  fiatAmount?: string | undefined;
  cryptoAmount?: string | undefined;
  /** Percent, 0 to 5, from config only. */
  markup: number;
}

export interface SellQuoteRequest {
  /** A payout slug (`bank-transfer`). */
  method: string;
  fiat: string;
  crypto: string;
  fiatAmount?: string | undefined;
  cryptoAmount?: string | undefined;
  markup: number;
}

export interface RampClient {
  supported(): Promise<RampSupported>;
  /**
   * On-ramp methods of a country (all countries' methods, deduplicated, without one). The same array (do not
   * mutate it) until the upstream list is refreshed, so callers may memoise on its identity.
   */
  paymentMethods(country?: string): Promise<readonly RampMethod[]>;
  /** Off-ramp methods of a country (all, deduplicated, without one); the same array until a refresh. */
  payoutMethods(country?: string): Promise<readonly RampMethod[]>;
  buyQuote(request: BuyQuoteRequest): Promise<RampBuyQuote>;
  sellQuote(request: SellQuoteRequest): Promise<RampSellQuote>;
  /** A signed widget URL (upstream/widget-url.ts): `params` in order, `apiKey` first, `signature` last. */
  signWidgetUrl(side: WidgetSide, params: WidgetParams): string;
  /** Where the widget is served from (for postMessage origin checks). */
  readonly widgetOrigin: string;
  budgetStats(): BudgetStats;
  /** Shapes of the upstream's answers the parsers had to drop parts of (also in `/healthz` and the admin API). */
  drift(): DriftEntry[];
  close(): Promise<void>;
}

export interface RampClientOptions {
  apiUrl: string;
  widgetUrl: string;
  publicKey: string;
  secretKey: string;
  timeoutMs: number;
  /** Shared by every ramp call of this process. */
  budget: Budget;
  clock: Clock;
  /** Catalog entries are fresh this long, then served stale while one refresh runs (default 5 min). */
  catalogTtlMs?: number;
  /** Past this age a stale catalog is not served any more; callers wait for the refresh (default 1 h). */
  catalogMaxStaleMs?: number;
  /** How long a priced quote answers identical requests (default 5 s). */
  quoteTtlMs?: number;
  /** Test seam: the HTTP layer. */
  http?: UpstreamHttp;
  /** Redis's cache shared by the instances (REDIS_URL): a quote or catalog read made by one serves all. */
  sharedCache?: SharedCache | undefined;
  /** Measuring seam: the fetch the default HTTP layer uses (the bench times upstream calls with it). */
  fetch?: typeof fetch;
  log?: LogLine;
  /** Told of every upstream attempt (the metrics). */
  observe?: UpstreamObserver | undefined;
  /** Told what the answers report (the FX book, quotes/fx.ts). */
  reports?: RampReports | undefined;
}

/** What the ramp's answers report, for whoever learns from them (quotes/fx.ts: the exchange rates). */
export interface RampReports {
  /** A priced quote in `fiat`: the EUR and local amounts of one of its figures. */
  priced(fiat: string, eur: number | null | undefined, local: number | null | undefined): void;
  /** A method list the ramp gave, each method once (read only when wanted). */
  listed(methods: () => Iterable<RampMethod>): void;
}

const MERCHANT = '/api/v1/merchant';

/** A catalog read: what to ask and how to read the answer (the cache's fetch context). */
interface CatalogRead {
  path: string;
  query: Record<string, string>;
  schema: z.ZodType;
  check?: ((data: never, raw: unknown) => void) | undefined;
  /** A stale copy is being served meanwhile: a failure is only logged (the caller already has its answer). */
  background: boolean;
}

/** A pricing call: where, and with what body (the quote cache's fetch context). */
interface PricingCall {
  path: string;
  body: Record<string, unknown> & { fiat_currency: string };
  /** The body as sent (it is the cache key, after the path). */
  json: string;
  schema: z.ZodType;
  rateOf: (quote: never) => [eur: number | null | undefined, local: number | null | undefined];
}

export function createRampClient(options: RampClientOptions): RampClient {
  const log = options.log ?? logger.warn;
  const http =
    options.http ??
    createUpstreamHttp({
      name: 'ramp',
      baseUrl: options.apiUrl,
      timeoutMs: options.timeoutMs,
      budget: options.budget,
      log,
      observe: options.observe,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  const clock = { now: () => options.clock.now() };
  const ttl = options.catalogTtlMs ?? 5 * 60_000;
  const maxStale = options.catalogMaxStaleMs ?? 60 * 60_000;
  const drift = createDriftLog(log, () => options.clock.now());
  const reports = options.reports;

  /**
   * The catalog's lists, by path and query: fresh for `ttl` → served; stale → served while one refresh runs (a
   * failed refresh keeps the stale copy); older than `maxStale` or absent → callers wait for the one flight.
   */
  const catalog = new LRUCache<string, { data: unknown; at: number }, CatalogRead>({
    // Every list once, and each country's when a flat list does not say (some 250 countries, both sides).
    max: 1024,
    ttl,
    ttlResolution: 0,
    perf: clock,
    noDeleteOnStaleGet: true,
    noDeleteOnFetchRejection: true,
    fetchMethod: async (_key, _stale, { context: read, options: entry }) => {
      try {
        const fetchRaw = async () => ({
          raw: await http.get(read.path, { query: read.query, schema: envelope(z.unknown()), retry: true }),
          at: Date.now(),
        });
        // Shared for as long as a copy is fresh, with when it was read: an instance starting meanwhile (or
        // refreshing its own) takes it as it is, fresh for what is left of the TTL, not for a TTL of its own.
        const answer = options.sharedCache
          ? await options.sharedCache.run(
              `catalog:v2:${read.path}?${new URLSearchParams(read.query)}`,
              ttl,
              fetchRaw,
            )
          : await fetchRaw();
        const raw = answer.raw;
        const age = Math.max(0, Date.now() - answer.at);
        if (age > 0) entry.ttl = Math.max(1, ttl - age);
        const parsed = read.schema.safeParse(raw);
        if (!parsed.success) {
          drift.note(
            read.path,
            parsed.error.issues[0]?.path.join('.') || 'data',
            parsed.error.issues[0]?.message ?? 'unreadable',
          );
          throw new AppError('UPSTREAM_ERROR', 'The ramp service answered in a shape we do not understand.');
        }
        read.check?.(parsed.data as never, raw);
        return { data: parsed.data, at: clock.now() };
      } catch (error) {
        if (read.background) log(`[ramp] background catalog refresh failed: ${(error as Error).message}`);
        throw error;
      }
    },
  });

  const read = <T>(
    path: string,
    schema: z.ZodType<T>,
    query: Record<string, string>,
    check?: (data: T, raw: unknown) => void,
  ) => {
    const key = `${path}?${new URLSearchParams(query)}`;
    return async (): Promise<T> => {
      // Asked on every catalog and quote request: a fresh copy is answered without more ado.
      const fresh = catalog.get(key);
      if (fresh) return fresh.data as T;
      const kept = catalog.peek(key, { allowStale: true });
      const usable = kept !== undefined && clock.now() - kept.at < maxStale;
      const entry = await catalog.fetch(key, {
        allowStale: usable,
        context: { path, query, schema, check: check as CatalogRead['check'], background: usable },
      });
      return (entry as { data: T }).data;
    };
  };

  /** What a method list carried that could not be read (each kind noted once, counted after). */
  const methodDrift = (path: string, data: MethodsByCountry) => {
    for (const list of Object.values(data)) {
      for (const method of list) {
        for (const field of method.ignored)
          drift.note(path, `${method.slug}.${field}`, 'not a number; entry left out');
      }
    }
  };
  const methodsRead = (path: string, query: Record<string, string>) =>
    read(path, methodsData, query, (data) => methodDrift(path, data));

  // Both casings of the key parameter are in use upstream (docs/upstream.md#payment-methods `apiKey`,
  // docs/upstream.md#payout-methods `api_key`).
  const supportedPath = `${MERCHANT}/get_supported`;
  const supported = read(supportedPath, supportedData, { api_key: options.publicKey }, (data, raw) => {
    // A list that is missing, or whose every entry was unreadable, is the upstream's shape, not an empty
    // catalog: refuse it (the shopper gets UPSTREAM_ERROR, not "crypto is not supported") and say so.
    const given = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    for (const key of ['supported_fiats', 'supported_cryptos', 'supported_countries'] as const) {
      const rawList = given[key];
      const kept = data[key].length;
      if (!Array.isArray(rawList)) drift.note(supportedPath, `data.${key}`, 'missing or not a list');
      else if (kept < rawList.length)
        drift.note(
          supportedPath,
          `data.${key}`,
          `${rawList.length - kept} of ${rawList.length} entries unreadable`,
        );
    }
    if (!data.supported_cryptos.length || !data.supported_countries.length || !data.supported_fiats.length) {
      throw new AppError('UPSTREAM_ERROR', 'The ramp service listed no currencies or countries we can read.');
    }
  });
  const paymentMethods = methodsRead(`${MERCHANT}/get_payment_methods`, { apiKey: options.publicKey });
  const payoutMethods = methodsRead(`${MERCHANT}/sell/get_payout_methods`, { api_key: options.publicKey });
  // A flat list without countries cannot say which methods a country has: then ask per country (the
  // `slug=<country>` filter for payouts, docs/upstream.md#payout-methods; `country` for payment methods).
  const perCountry = (endpoint: string, param: string, country: string) =>
    methodsRead(`${MERCHANT}/${endpoint}`, { apiKey: options.publicKey, [param]: country.toUpperCase() })();
  /**
   * A country's methods asked for by name. An answer that is the whole list again may be that country's, or the
   * filter ignored: a country no list has tells which (read once, cached like any list).
   */
  const askCountry = async (
    endpoint: string,
    param: string,
    whole: MethodsByCountry,
    country: string,
    byCurrency = false,
  ) => {
    const answer = await perCountry(endpoint, param, country);
    const filtered =
      !sameMethods(answer, whole) || uniqueBySlug(await perCountry(endpoint, param, NO_COUNTRY)).length === 0;
    if (filtered || !byCurrency) return countryMethods.of(answer, country, filtered);
    // The list still does not say: the methods taking the country's fiat, each confirmed by pricing there.
    const code = country.toUpperCase();
    const fiat = (await supported()).supported_countries
      .find((entry) => entry.iso.toUpperCase() === code)
      ?.currency?.toUpperCase();
    return fiat ? regions.offer(answer, code, fiat) : countryMethods.of(answer, country, false);
  };
  const regions = createRegionChecks(log);

  const countryMethods = createCountryMethods();

  const quoteTtlMs = options.quoteTtlMs ?? 5000;
  /** Identical pricing bodies joined while in flight and answered from the first for `quoteTtlMs`; failures are not kept. */
  const priced = new LRUCache<string, object, PricingCall>({
    max: 1000,
    ttl: quoteTtlMs,
    ttlResolution: 0,
    perf: clock,
    fetchMethod: async (_key, _stale, { context: call }) => {
      const load = () =>
        http.post(call.path, { body: call.body, schema: envelope(call.schema), retry: true });
      const quote = options.sharedCache
        ? await options.sharedCache.run(
            `quote:${createHash('sha256').update(call.path).update(call.json).digest('hex')}`,
            quoteTtlMs,
            load,
          )
        : await load();
      reports?.priced(call.body.fiat_currency, ...call.rateOf(quote as never));
      return quote as object;
    },
  });

  /** The body fields both pricing endpoints share; markup always comes from the caller (config). */
  const amounts = (request: BuyQuoteRequest | SellQuoteRequest) => ({
    fiat_currency: request.fiat.toUpperCase(),
    crypto_currency: request.crypto,
    // The pricing endpoints take JSON numbers (docs/upstream.md#buy-pricing): our decimal strings become
    // numbers only here.
    ...(request.fiatAmount !== undefined ? { fiat_amount: toNumber(request.fiatAmount) } : {}),
    ...(request.cryptoAmount !== undefined ? { crypto_amount: toNumber(request.cryptoAmount) } : {}),
    markup: request.markup,
  });

  /** One pricing call (a quote is a read, so it is retried); the fiat's exact rate is learned from its answer. */
  const price = async <Q>(
    path: string,
    schema: z.ZodType<Q>,
    rateOf: (quote: Q) => [eur: number | null | undefined, local: number | null | undefined],
    fields: Record<string, unknown> & { fiat_currency: string },
  ): Promise<Q> => {
    const body = { api_key: options.publicKey, ...fields };
    const json = JSON.stringify(body);
    return (await priced.fetch(`${path} ${json}`, {
      context: { path, body, json, schema, rateOf: rateOf as PricingCall['rateOf'] },
    })) as Q;
  };

  const widget = new URL(options.widgetUrl);

  return {
    widgetOrigin: widget.origin,

    supported,
    drift: () => drift.list(),

    paymentMethods: async (country) => {
      const byCountry = await paymentMethods();
      // A fee table per currency (base_fee {EUR: 0.35, USD: 0.4}) gives rough FX until a quote gives exact.
      reports?.listed(() => uniqueBySlug(byCountry));
      if (!country || countryMethods.keyedByCountry(byCountry)) return countryMethods.of(byCountry, country);
      return askCountry('get_payment_methods', 'country', byCountry, country, true);
    },

    payoutMethods: async (country) => {
      const byCountry = await payoutMethods();
      if (!country || countryMethods.keyedByCountry(byCountry)) return countryMethods.of(byCountry, country);
      return askCountry('sell/get_payout_methods', 'slug', byCountry, country);
    },

    buyQuote: (request) => {
      const buy = (crypto: string) =>
        price(
          `${MERCHANT}/pricing`,
          buyQuoteData,
          (quote) => [quote.fiat_amount_excl_fees, quote.fiat_amount_excl_fees_local],
          {
            payment_method: request.method,
            region: request.region.toUpperCase(),
            ...amounts({ ...request, crypto }),
          },
        );
      // A method offered by its currency alone is confirmed (or dropped) by its first pricing call there.
      return regions.priced(
        request.region,
        request.method,
        () => buy(request.crypto),
        async () => {
          const other = (await supported()).supported_cryptos.find((entry) => entry.iso !== request.crypto);
          return other ? buy(other.iso) : Promise.reject(new Error('no other crypto is listed'));
        },
      );
    },

    sellQuote: (request) =>
      price(
        `${MERCHANT}/sell/pricing`,
        sellQuoteData,
        (quote) => [quote.fiat_amount_incl_fees, quote.fiat_amount_incl_fees_local],
        { payout_method: request.method, ...amounts(request) },
      ),

    signWidgetUrl: (side, params) => signedWidgetUrl(options.widgetUrl, side, params, options.secretKey),

    budgetStats: () => options.budget.stats(),

    close: async () => options.budget.close(),
  };
}
