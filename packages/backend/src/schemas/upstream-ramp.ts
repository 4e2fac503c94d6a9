/**
 * What the ramp API answers, parsed leniently (docs/upstream.md#ramp-api): unknown fields pass, numbers may come as
 * numeric strings, payment/payout methods may be keyed by country or a flat list (or one bare object), a
 * method's `base_fee` may be `{base_fee: n}`, a per-currency map, a number or null, `default` may be null,
 * icons, `kyc_required`, `order`, `min_fee` are optional. Everything comes out in one normalised shape.
 */
import { z } from 'zod';
import { upstreamDecimal } from '../money.ts';

/** A number, or a numeric string made one (`"0.05"` → 0.05). Empty strings and words are refused. */
export const num = z.union([
  z.number().finite(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/)
    .transform(Number),
]);

const text = z.string().nullish();
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).nullish();

/** `["EUR","USD"]`, `"EUR"` or `"EUR,USD"`: always a list of upper-case codes. */
const currencyList = z
  .union([z.array(z.string()), z.string()])
  .nullish()
  .transform((value) =>
    (Array.isArray(value) ? value : (value ?? '').split(','))
      .map((code) => code.trim().toUpperCase())
      .filter(Boolean),
  );

/**
 * The fixed fee: `{"base_fee": 0.35}` (EUR), `{"EUR": 0.35, "USD": 0.4}` (per currency), a bare number (EUR)
 * or null. Out: the EUR amount (when known) and the per-currency map.
 */
const baseFee = z
  .union([num, z.record(z.string(), z.unknown())])
  .nullish()
  .transform((value) => {
    const ignored: string[] = [];
    if (value === null || value === undefined)
      return { eur: 0, byCurrency: {} as Record<string, number>, ignored };
    if (typeof value === 'number') return { eur: value, byCurrency: { EUR: value }, ignored };
    // One unreadable entry costs that entry, not the method: the others still price it.
    const byCurrency: Record<string, number> = {};
    let keyed: number | undefined;
    for (const [key, raw] of Object.entries(value)) {
      const amount = num.nullish().safeParse(raw);
      if (!amount.success) ignored.push(`base_fee.${key}`);
      else if (typeof amount.data !== 'number') continue;
      else if (key === 'base_fee') keyed = amount.data;
      else byCurrency[key.toUpperCase()] = amount.data;
    }
    return { eur: keyed ?? byCurrency['EUR'] ?? 0, byCurrency, ignored };
  });

const rawMethod = z.looseObject({
  id: z.union([z.number(), z.string()]).nullish(),
  name: text,
  fee: num.nullish(),
  slug: z.string().min(1),
  default: flag,
  currency: currencyList,
  base_fee: baseFee,
  disabled: flag,
  min_fee: num.nullish(),
  min_amount: num.nullish(),
  max_amount: num.nullish(),
  payment_group: text,
  img_url: text,
  img_url_light: text,
  kyc_required: flag,
  order: num.nullish(),
  /** Some flat lists say where each method is offered. */
  countries: z.array(z.string()).nullish(),
  country: text,
  region: text,
});

/** One payment (on-ramp) or payout (off-ramp) method, normalised. Amounts are EUR (docs/upstream.md#payment-methods). */
export interface RampMethod {
  slug: string;
  /** The payment group (buy); the slug itself for payout methods, which have none. */
  group: string;
  name: string;
  feePercent: number;
  fixedFeeEur: number;
  fixedFeeByCurrency: Record<string, number>;
  minFeeEur: number;
  minEur: number | null;
  maxEur: number | null;
  currencies: string[];
  isDefault: boolean;
  disabled: boolean;
  icon: string | null;
  iconLight: string | null;
  order: number | null;
  /** Countries a flat list said the method is offered in; empty when it did not say. */
  countries: string[];
  /** Fields of the upstream's answer that could not be read and were left out (logged by the ramp client). */
  ignored: string[];
}

/** Whether `method` is enabled and answers to `id` (a payment group, or a method or payout slug). */
export const isOffered = (method: RampMethod, id: string) =>
  !method.disabled && (method.group === id || method.slug === id);

const title = (slug: string) =>
  slug
    .replace(/-extra$/, '')
    .split(/[-_]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(' ');

const toMethod = (raw: z.infer<typeof rawMethod>): RampMethod => ({
  slug: raw.slug,
  group: raw.payment_group ?? raw.slug,
  name: raw.name ?? title(raw.slug),
  feePercent: raw.fee ?? 0,
  fixedFeeEur: raw.base_fee.eur,
  fixedFeeByCurrency: raw.base_fee.byCurrency,
  minFeeEur: raw.min_fee ?? 0,
  minEur: raw.min_amount ?? null,
  maxEur: raw.max_amount ?? null,
  currencies: raw.currency,
  isDefault: raw.default === true || raw.default === 1,
  disabled: raw.disabled === true || raw.disabled === 1,
  icon: raw.img_url ?? null,
  iconLight: raw.img_url_light ?? null,
  order: raw.order ?? null,
  countries: [
    ...(raw.countries ?? []),
    ...(raw.country ? [raw.country] : []),
    ...(raw.region ? [raw.region] : []),
  ]
    .map((code) => code.toUpperCase())
    .filter((code) => /^[A-Z]{2}$/.test(code)),
  ignored: raw.base_fee.ignored,
});

/**
 * A list where one unreadable entry is dropped instead of failing the whole catalog: the upstream adding a
 * method we cannot read must not take checkout down. A list none of whose entries can be read is not a list of
 * methods: refused (`undefined`).
 */
const methodList = (items: unknown[]): RampMethod[] | undefined => {
  const methods = items.flatMap((item) => {
    const parsed = rawMethod.safeParse(item);
    return parsed.success ? [toMethod(parsed.data)] : [];
  });
  return items.length && !methods.length ? undefined : methods;
};

/**
 * Methods by country. `'*'` holds methods of a flat list (or a bare method) that did not say where they are
 * offered: which countries have them is asked per country (upstream/ramp-methods.ts); where that is not
 * honoured either, a country is offered those taking its fiat, each confirmed by pricing (upstream/region-checks.ts).
 */
export type MethodsByCountry = Record<string, RampMethod[]>;

const COUNTRY = /^[A-Za-z]{2}$/;

/**
 * The three documented shapes (docs/upstream.md#payment-methods): keyed by country, a flat list, one bare
 * method. Anything else (a map keyed by something other than countries, lists of nothing readable) is refused:
 * the client answers UPSTREAM_ERROR rather than offer a country methods that are not its own, or none.
 */
export const methodsData = z
  .union([
    z.array(z.unknown()),
    // One bare method object (a docs sample); a map keyed by country has no `slug` key.
    z.looseObject({ slug: z.string() }),
    z.record(z.string(), z.union([z.array(z.unknown()), z.looseObject({})])),
  ])
  .transform((data, ctx): MethodsByCountry => {
    const out: MethodsByCountry = {};
    const refuse = (message: string) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    const add = (country: string, method: RampMethod) => {
      out[country] ??= [];
      out[country].push(method);
    };
    const flat = (list: RampMethod[]) => {
      for (const method of list) {
        if (method.countries.length === 0) add('*', method);
        for (const country of method.countries) add(country, method);
      }
    };
    if (Array.isArray(data) || typeof data['slug'] === 'string') {
      const list = methodList(Array.isArray(data) ? data : [data]);
      if (!list) return refuse('no method of the list could be read');
      flat(list);
      return out;
    }
    for (const [key, value] of Object.entries(data)) {
      if (!COUNTRY.test(key)) return refuse(`keyed by ${JSON.stringify(key)}, not by country`);
      const list = methodList(Array.isArray(value) ? value : [value]);
      if (!list) return refuse(`no method of ${key} could be read`);
      out[key.toUpperCase()] = [...(out[key.toUpperCase()] ?? []), ...list];
    }
    return out;
  });

const rawCountry = z.looseObject({
  iso: z.string().length(2),
  name: text,
  currency: text,
});

const rawFiat = z.looseObject({ iso: z.string().min(1), name: text });

const rawCrypto = z.looseObject({
  id: z.union([z.number(), z.string()]).nullish(),
  iso: z.string().min(1),
  name: text,
  symbol: text,
  type: text,
  network: text,
  network_name: text,
  network_fee: num.nullish(),
  tags: z.array(z.string()).nullish(),
  img_url: text,
  icon: text,
});

const lenientList = <T>(schema: z.ZodType<T>) =>
  z
    .array(z.unknown())
    .nullish()
    .transform((items) =>
      (items ?? []).flatMap((item) => {
        const parsed = schema.safeParse(item);
        return parsed.success ? [parsed.data] : [];
      }),
    );

export const supportedData = z.looseObject({
  supported_fiats: lenientList(rawFiat),
  supported_cryptos: lenientList(rawCrypto),
  supported_countries: lenientList(rawCountry),
});

export type RampSupported = z.infer<typeof supportedData>;
export type RampCrypto = RampSupported['supported_cryptos'][number];

export const buyQuoteData = z.looseObject({
  crypto_amount: num,
  crypto_currency: text,
  crypto_unit_price: num,
  network_fee: num.nullish(),
  network_fee_local: num.nullish(),
  fiat_amount_incl_fees: num.nullish(),
  fiat_amount_excl_fees: num.nullish(),
  fiat_amount_incl_fees_local: num,
  fiat_amount_excl_fees_local: num,
  fiat_currency: text,
  markup_fiat_value: num.nullish(),
  processing_fee: num.nullish(),
  payment_method: text,
  payment_group: text,
});

export type RampBuyQuote = z.infer<typeof buyQuoteData>;

export const sellQuoteData = z.looseObject({
  crypto_amount: num,
  crypto_currency: text,
  crypto_unit_price: num,
  /** In crypto (docs/upstream.md#sell-pricing); 0 when not applied. */
  network_fee: num.nullish(),
  fiat_amount_incl_fees: num.nullish(),
  fiat_amount_excl_fees: num.nullish(),
  fiat_amount_incl_fees_local: num.nullish(),
  fiat_amount_excl_fees_local: num.nullish(),
  fiat_currency: text,
  markup_fiat_value: num.nullish(),
  processing_fee: num.nullish(),
});

export type RampSellQuote = z.infer<typeof sellQuoteData>;

const callbackText = z.string().nullish();
const callbackAmount = upstreamDecimal.nullish();

/** A ramp order callback (POSTed to our `responseUrl`, `signature` header): one order's new status and details. */
export const rampCallback = z.looseObject({
  order_id: z.string().min(1),
  order_status: z.string().min(1),
  order_type: callbackText,
  order_crypto: callbackText,
  order_crypto_amount: callbackAmount,
  order_crypto_address: callbackText,
  network: callbackText,
  transaction_id: callbackText,
  external_customer_id: callbackText,
  order_amount_eur: callbackAmount,
  order_amount_eur_plus_fees: callbackAmount,
  order_amount_usd: callbackAmount,
  order_amount_usd_plus_fees: callbackAmount,
});
export type RampCallback = z.output<typeof rampCallback>;
