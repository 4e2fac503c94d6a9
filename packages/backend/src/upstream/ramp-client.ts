/**
 * The ramp API client (facts.md §2, §3): catalog reads cached and refreshed in the background, identical quotes
 * joined and cached for a few seconds, every call through the shared upstream budget, and widget URLs signed
 * with the secret key (which never leaves this module).
 */
import { createHash, createHmac } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import { logger } from '../logger.ts';
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
import { createUpstreamHttp, envelope, type UpstreamHttp } from './http.ts';

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

export type WidgetSide = 'buy' | 'sell';

/** EUR value of one unit of a fiat, and whether it came from a priced quote (exact) or a fee table (rough). */
export interface FxRate {
  eurPerUnit: number;
  exact: boolean;
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
  /** The EUR value of one unit of `fiat`, as far as the quotes and catalog seen so far tell. */
  fx(fiat: string): FxRate | undefined;
  /**
   * Goes up when what `fx` tells has moved enough to show: a currency's first rate, or one that has moved more
   * than 0.1 % since it last went up. What is built from the rates (the catalog's converted terms) is kept until then.
   */
  fxVersion(): number;
  /** A signed widget URL (facts.md §3.1): `params` in order, `apiKey` first, `signature` appended last. */
  signWidgetUrl(side: WidgetSide, params: Record<string, string | number | boolean | undefined>): string;
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
  log?: (line: string) => void;
}

const MERCHANT = '/api/v1/merchant';

/**
 * One cached value refreshed in the background: fresh → served; stale → served while one refresh runs; too
 * old or absent → callers wait for the one flight.
 */
class Refreshing<T> {
  #value: { data: T; at: number } | undefined;
  #flight: Promise<T> | undefined;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly maxStaleMs: number,
    private readonly log: (line: string) => void,
  ) {}

  get(): Promise<T> {
    const age = this.#value ? this.clock.now() - this.#value.at : Number.POSITIVE_INFINITY;
    if (this.#value && age < this.ttlMs) return Promise.resolve(this.#value.data);
    const flight = this.#refresh();
    if (this.#value && age < this.maxStaleMs) {
      flight.catch((error: Error) => this.log(`[ramp] background catalog refresh failed: ${error.message}`));
      return Promise.resolve(this.#value.data);
    }
    return flight;
  }

  #refresh(): Promise<T> {
    this.#flight ??= this.load()
      .then((data) => {
        this.#value = { data, at: this.clock.now() };
        return data;
      })
      .finally(() => {
        this.#flight = undefined;
      });
    return this.#flight;
  }
}

/** Joins identical requests in flight and keeps their answers for a short time. Failures are not kept. */
class Joiner<T> {
  readonly #entries = new Map<string, { promise: Promise<T>; expiresAt: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  run(key: string, load: () => Promise<T>): Promise<T> {
    const now = this.clock.now();
    const hit = this.#entries.get(key);
    if (hit && hit.expiresAt > now) return hit.promise;
    if (this.#entries.size > 500) this.#sweep(now);
    // In flight the entry never expires; it gets its TTL once it settles.
    const entry = { promise: load(), expiresAt: Number.POSITIVE_INFINITY };
    this.#entries.set(key, entry);
    entry.promise.then(
      () => {
        entry.expiresAt = this.clock.now() + this.ttlMs;
      },
      () => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return entry.promise;
  }

  #sweep(now: number): void {
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
  }
}

const uniqueBySlug = (byCountry: MethodsByCountry): RampMethod[] => {
  const seen = new Map<string, RampMethod>();
  for (const list of Object.values(byCountry)) for (const method of list) seen.set(method.slug, method);
  return [...seen.values()];
};

/** Whether the list says where methods are offered (keyed by country, or flat entries naming countries). */
const knowsCountries = (byCountry: MethodsByCountry) => Object.keys(byCountry).some((key) => key !== '*');

/**
 * The methods of one country: its own list, plus the methods a flat list gave without saying where that take the
 * country's currency (what the documents say a method carries). A list that ignored our `country` filter thus
 * offers Germany no PIX or BLIK.
 */
const ofCountry = (
  byCountry: MethodsByCountry,
  country: string | undefined,
  currency: string | undefined,
): RampMethod[] =>
  country
    ? [
        ...(byCountry[country.toUpperCase()] ?? []),
        ...(byCountry['*'] ?? []).filter(
          (method) => !currency || method.currencies.length === 0 || method.currencies.includes(currency),
        ),
      ]
    : uniqueBySlug(byCountry);

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
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  const ttl = options.catalogTtlMs ?? 5 * 60_000;
  const maxStale = options.catalogMaxStaleMs ?? 60 * 60_000;
  const drift = createDriftLog(log, () => options.clock.now());
  /** What a method list carried that could not be read (each kind noted once, counted after). */
  const methodDrift = (path: string, data: MethodsByCountry) => {
    for (const list of Object.values(data)) {
      for (const method of list) {
        for (const field of method.ignored)
          drift.note(path, `${method.slug}.${field}`, 'not a number; entry left out');
      }
    }
  };
  const read = <T>(
    path: string,
    schema: z.ZodType<T>,
    query: Record<string, string> = {},
    check?: (data: T, raw: unknown) => void,
  ) =>
    new Refreshing(
      async () => {
        const fetchRaw = () => http.get(path, { query, schema: envelope(z.unknown()), retry: true });
        // Shared only briefly: each instance still keeps its own copy for the catalog's TTL.
        const raw = options.sharedCache
          ? await options.sharedCache.run(`catalog:${path}?${new URLSearchParams(query)}`, 30_000, fetchRaw)
          : await fetchRaw();
        const parsed = schema.safeParse(raw);
        if (!parsed.success) {
          drift.note(
            path,
            parsed.error.issues[0]?.path.join('.') || 'data',
            parsed.error.issues[0]?.message ?? 'unreadable',
          );
          throw new AppError('UPSTREAM_ERROR', 'The ramp service answered in a shape we do not understand.');
        }
        check?.(parsed.data, raw);
        return parsed.data;
      },
      options.clock,
      ttl,
      maxStale,
      log,
    );
  const methodsRead = (path: string, query: Record<string, string>) =>
    read(path, methodsData, query, (data) => methodDrift(path, data));

  // Both casings of the key parameter are in use upstream (facts.md §2.1 `apiKey`, §2.3 `api_key`).
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
  // spec's `slug=<country>` filter for payouts; `country` for payment methods), each cached the same way.
  const paymentByCountry = new Map<string, Refreshing<MethodsByCountry>>();
  const payoutByCountry = new Map<string, Refreshing<MethodsByCountry>>();
  const perCountry = (
    caches: Map<string, Refreshing<MethodsByCountry>>,
    endpoint: string,
    param: string,
    country: string,
  ) => {
    const code = country.toUpperCase();
    let cache = caches.get(code);
    if (!cache) {
      cache = methodsRead(`${MERCHANT}/${endpoint}`, { apiKey: options.publicKey, [param]: code });
      caches.set(code, cache);
    }
    return cache.get();
  };

  const quoteTtlMs = options.quoteTtlMs ?? 5000;
  const buyQuotes = new Joiner<RampBuyQuote>(options.clock, quoteTtlMs);
  const sellQuotes = new Joiner<RampSellQuote>(options.clock, quoteTtlMs);
  /** Learned from priced quotes: EUR per unit of each fiat. Per client instance, never module-wide. */
  const learnedFx = new Map<string, number>();
  let roughFx: Map<string, number> | undefined;

  let fxVersion = 0;
  /** Each currency's rate when `fxVersion` last went up for it. */
  const shownFx = new Map<string, number>();
  const learn = (fiat: string, eur: number | null | undefined, local: number | null | undefined) => {
    if (!(eur && local && eur > 0 && local > 0)) return;
    const code = fiat.toUpperCase();
    const rate = eur / local;
    learnedFx.set(code, rate);
    // Every quote's rate differs a little (its figures are rounded to cents): only a real move counts.
    const shown = shownFx.get(code);
    if (shown === undefined || Math.abs(rate - shown) / shown > 0.001) {
      shownFx.set(code, rate);
      fxVersion += 1;
    }
  };

  /** The body fields both pricing endpoints share; markup always comes from the caller (config). */
  const amounts = (request: BuyQuoteRequest | SellQuoteRequest) => ({
    fiat_currency: request.fiat.toUpperCase(),
    crypto_currency: request.crypto,
    // The pricing endpoints take JSON numbers (spec.md): our decimal strings become numbers only here.
    ...(request.fiatAmount !== undefined ? { fiat_amount: toNumber(request.fiatAmount) } : {}),
    ...(request.cryptoAmount !== undefined ? { crypto_amount: toNumber(request.cryptoAmount) } : {}),
    markup: request.markup,
  });

  /**
   * One pricing call: identical bodies joined, retried (a quote is a read), and the fiat's exact rate learned
   * from the EUR and local amounts `rateOf` picks.
   */
  const price = <Q>(
    joiner: Joiner<Q>,
    path: string,
    schema: z.ZodType<Q>,
    rateOf: (quote: Q) => [eur: number | null | undefined, local: number | null | undefined],
    fields: Record<string, unknown> & { fiat_currency: string },
  ) => {
    const body = { api_key: options.publicKey, ...fields };
    const key = JSON.stringify(body);
    return joiner.run(key, async () => {
      const load = () => http.post(path, { body, schema: envelope(schema), retry: true });
      const quote = options.sharedCache
        ? await options.sharedCache.run(
            `quote:${createHash('sha256').update(path).update(key).digest('hex')}`,
            quoteTtlMs,
            load,
          )
        : await load();
      learn(body.fiat_currency, ...rateOf(quote));
      return quote;
    });
  };

  const widget = new URL(options.widgetUrl);

  // Asked on every catalog and quote request: answered once per upstream list (bench profile).
  const countryKeyed = new WeakMap<MethodsByCountry, boolean>();
  const keyedByCountry = (byCountry: MethodsByCountry) => {
    let known = countryKeyed.get(byCountry);
    if (known === undefined) {
      known = knowsCountries(byCountry);
      countryKeyed.set(byCountry, known);
    }
    return known;
  };

  // One derived list per upstream list and country: the catalog route serialises a country's catalog once
  // per refresh by comparing these arrays' identity. A refresh brings a new upstream object, so new lists.
  const derived = new WeakMap<MethodsByCountry, Map<string, readonly RampMethod[]>>();
  const methodsOf = async (byCountry: MethodsByCountry, country: string | undefined) => {
    let byCode = derived.get(byCountry);
    if (!byCode) {
      byCode = new Map();
      derived.set(byCountry, byCode);
    }
    const code = country?.toUpperCase() ?? '';
    let methods = byCode.get(code);
    if (!methods) {
      const currency = country
        ? (await supported.get()).supported_countries
            .find((entry) => entry.iso.toUpperCase() === code)
            ?.currency?.toUpperCase()
        : undefined;
      methods = ofCountry(byCountry, country, currency);
      byCode.set(code, methods);
    }
    return methods;
  };

  return {
    widgetOrigin: widget.origin,

    supported: () => supported.get(),
    drift: () => drift.list(),

    paymentMethods: async (country) => {
      const byCountry = await paymentMethods.get();
      // A fee table per currency (base_fee {EUR: 0.35, USD: 0.4}) gives rough FX until a quote gives exact.
      if (!roughFx) {
        roughFx = roughFxFrom(byCountry);
        fxVersion += 1;
      }
      if (!country || keyedByCountry(byCountry)) return methodsOf(byCountry, country);
      return methodsOf(
        await perCountry(paymentByCountry, 'get_payment_methods', 'country', country),
        country,
      );
    },

    payoutMethods: async (country) => {
      const byCountry = await payoutMethods.get();
      if (!country || keyedByCountry(byCountry)) return methodsOf(byCountry, country);
      return methodsOf(
        await perCountry(payoutByCountry, 'sell/get_payout_methods', 'slug', country),
        country,
      );
    },

    buyQuote: (request) =>
      price(
        buyQuotes,
        `${MERCHANT}/pricing`,
        buyQuoteData,
        (quote) => [quote.fiat_amount_excl_fees, quote.fiat_amount_excl_fees_local],
        {
          payment_method: request.method,
          region: request.region.toUpperCase(),
          ...amounts(request),
        },
      ),

    sellQuote: (request) =>
      price(
        sellQuotes,
        `${MERCHANT}/sell/pricing`,
        sellQuoteData,
        (quote) => [quote.fiat_amount_incl_fees, quote.fiat_amount_incl_fees_local],
        { payout_method: request.method, ...amounts(request) },
      ),

    fx: (fiat) => {
      const code = fiat.toUpperCase();
      if (code === 'EUR') return { eurPerUnit: 1, exact: true };
      const exact = learnedFx.get(code);
      if (exact) return { eurPerUnit: exact, exact: true };
      const rough = roughFx?.get(code);
      return rough ? { eurPerUnit: rough, exact: false } : undefined;
    },

    fxVersion: () => fxVersion,

    signWidgetUrl: (side, params) => signedWidgetUrl(options.widgetUrl, side, params, options.secretKey),

    budgetStats: () => options.budget.stats(),

    close: async () => options.budget.close(),
  };
}

/** EUR per unit of each currency, from methods whose fixed fee is listed per currency next to EUR. */
function roughFxFrom(byCountry: MethodsByCountry): Map<string, number> {
  const rates = new Map<string, number>();
  for (const method of uniqueBySlug(byCountry)) {
    const eur = method.fixedFeeByCurrency['EUR'] ?? method.fixedFeeEur;
    // Tiny fees rounded to cents say little about the rate.
    if (!eur || eur < 0.2) continue;
    for (const [code, local] of Object.entries(method.fixedFeeByCurrency)) {
      if (local > 0 && code !== 'EUR' && !rates.has(code)) rates.set(code, eur / local);
    }
  }
  return rates;
}

/**
 * base64 HMAC-SHA256 with the secret key over `"?" + query` exactly as it appears in the URL (already
 * percent-encoded), appended last as `&signature=` (facts.md §3.1).
 */
export function signedWidgetUrl(
  widgetUrl: string,
  side: WidgetSide,
  params: Record<string, string | number | boolean | undefined>,
  secretKey: string,
): string {
  const query = Object.entries(params)
    .filter(
      (entry): entry is [string, string | number | boolean] => entry[1] !== undefined && entry[1] !== '',
    )
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
  const signature = createHmac('sha256', secretKey).update(`?${query}`).digest('base64');
  const base = widgetUrl.replace(/\/+$/, '');
  return `${base}/${side === 'sell' ? 'sell' : ''}?${query}&signature=${encodeURIComponent(signature)}`;
}
