/**
 * What a signed widget URL asks for: the buy and sell query parameters (docs/upstream.md#ramp-widget-url),
 * checked with zod and resolved against the catalog into the session a widget page runs on.
 */
import { z } from 'zod';
import { type Country, countries, findCountry, findCrypto, findFiat, findPayoutMethod } from '../catalog.ts';
import type { RampSession } from '../orders.ts';

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

export const issueText = (error: { issues: readonly z.core.$ZodIssue[] }) => {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'parameters'}: ${issue.message}` : 'Invalid parameters';
};

type SessionDraft = Omit<RampSession, 'id'>;
type Draft = { ok: true; session: SessionDraft } | { ok: false; message: string };

export function buyDraft(merchantId: string, params: URLSearchParams): Draft {
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

export function sellDraft(merchantId: string, params: URLSearchParams): Draft {
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
