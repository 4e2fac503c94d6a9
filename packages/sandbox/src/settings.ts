/**
 * The sandbox's settings: switches for how it answers, read on every request. One zod schema declares each
 * setting with its default; the `SandboxSettings` type, the defaults and the body `PATCH /control/settings` takes
 * all come from it. Adding a switch is one entry here (then read `state.settings.<name>` where it acts, and list
 * it in README.md's Controls).
 */
import { z } from 'zod';

export const settingsSchema = z.object({
  /**
   * `get_payment_methods` (docs/upstream.md#payment-methods): keyed by country (what the live service does), a
   * flat list with no countries, a flat list whose methods name their countries, or one bare method object (the
   * first of the list, or of the country asked for).
   */
  paymentMethodsShape: z.enum(['by-country', 'flat', 'flat-countries', 'single']).default('by-country'),
  /** Payments webhooks: the newer camelCase payload or the older snake_case one. */
  webhookCasing: z.enum(['camel', 'snake']).default('camel'),
  /** Requests per second allowed on /api/v1/merchant/ per merchant key (the real limit is 100). */
  rampRateLimit: z.number().int().min(1).max(100_000).default(100),
  /** Delays between webhook/callback attempts; the real service waits minutes, the sandbox seconds. */
  retryDelaysMs: z
    .array(z.number().int().min(0).max(600_000))
    .max(20)
    .default(() => [500, 1000, 2000, 4000, 8000]),
  /** How long a new payment order stays open. */
  orderTtlMs: z
    .number()
    .int()
    .min(1000)
    .default(30 * 60 * 1000),
  /**
   * Payment order ids: `A5WX6BN6CCPS`, or with the older `SP-` prefix everywhere
   * (docs/upstream.md#payment-orders).
   */
  orderIds: z.enum(['plain', 'sp-prefixed']).default('plain'),
  /** The order list's `searchId`: a case-insensitive substring of the id or externalId, or the exact id. */
  searchIdMatch: z.enum(['contains', 'exact']).default('contains'),
  /** Per-currency `base_fee` maps carry one non-numeric entry (`"XXX": "n/a"`), as a careless upstream might. */
  baseFeeJunkEntry: z.boolean().default(false),
  /** `get_payment_methods?country=`: honoured, or ignored as an undocumented filter may be (the whole list). */
  paymentMethodsCountryFilter: z.enum(['honoured', 'ignored']).default('honoured'),
  /** `get_supported`: the documented `supported_*` lists, or the same lists renamed (shape drift). */
  supportedShape: z.enum(['documented', 'renamed']).default('documented'),
  /** Sell quotes: every described field, or only the first seven the docs' samples carry (no `_local`, fees). */
  sellQuoteFields: z.enum(['all', 'documented-seven']).default('all'),
  /**
   * Sell quotes' `processing_fee` and `markup_fiat_value`: in the local fiat, or in EUR
   * (docs/upstream.md#sell-pricing).
   */
  sellFeeCurrency: z.enum(['local', 'eur']).default('local'),
  /**
   * The payments API's answers: camelCase as documented, or every field in snake_case (`external_id`,
   * `current_page`), a shape no document describes, for testing that it is refused, not read as empty.
   */
  payApiCasing: z.enum(['camel', 'snake']).default('camel'),
  /**
   * A payment to an order that is expired (or already paid): whether the upstream tells of it is not known
   * (docs/upstream.md#payments-after-expiry). Unreported (the pay control and page refuse it, as the sandbox always
   * did), recorded on the order with its status unchanged (PAYMENT_RECEIVED, the order's own status), or taken as
   * if the order were open (its status moves on, with the usual webhook).
   */
  latePayments: z.enum(['unreported', 'recorded', 'reopened']).default('unreported'),
  /*
   * The fee model (docs/upstream.md#fees-and-rounding leaves each of these open; README "Quote model" writes
   * them out). The defaults are the model the sandbox always had.
   */
  /** A method's fixed fee: its EUR figure converted to the fiat, or the same figure in every fiat (0.35 USD, 0.35 BRL). */
  feeFixed: z.enum(['converted', 'per-currency']).default('converted'),
  /** The processing fee reckoned on the local amount, or on the EUR amount and then converted to the fiat. */
  feeCurrency: z.enum(['local', 'eur']).default('local'),
  /** The processing fee and markup rounded to the nearest cent or up to the cent. */
  feeRounding: z.enum(['nearest', 'up']).default('nearest'),
  /**
   * The amount the fee percentage is taken from: the amount priced (buy: before fees, sell: the crypto's value),
   * or on both sides the net (before fees on a buy, what is paid out on a sell) or the gross (what is paid on a
   * buy, the crypto's value on a sell).
   */
  feeOn: z.enum(['priced', 'net', 'gross']).default('priced'),
});

/** The fee-model settings, as the quote math takes them. */
export type FeeModel = Pick<SandboxSettings, 'feeFixed' | 'feeCurrency' | 'feeRounding' | 'feeOn'>;

export const feeModelOf = (settings: SandboxSettings): FeeModel => ({
  feeFixed: settings.feeFixed,
  feeCurrency: settings.feeCurrency,
  feeRounding: settings.feeRounding,
  feeOn: settings.feeOn,
});

export type SandboxSettings = z.output<typeof settingsSchema>;

type Shape = typeof settingsSchema.shape;

/**
 * Some settings, each checked as the schema says and none defaulted: what `PATCH /control/settings` and the
 * `settings` option take. A key the schema does not know is refused, not dropped.
 */
export const settingsPatchSchema = z
  .object(
    Object.fromEntries(
      Object.entries(settingsSchema.shape).map(([key, field]) => [key, field.unwrap().optional()]),
    ) as { [K in keyof Shape]: z.ZodOptional<ReturnType<Shape[K]['unwrap']>> },
  )
  .strict();

export type SettingsPatch = z.output<typeof settingsPatchSchema>;

/** Every setting at its default (a fresh copy: lists are not shared between sandboxes). */
export const defaultSettings = (): SandboxSettings => settingsSchema.parse({});
