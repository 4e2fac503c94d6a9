/**
 * From a pricing request to a quote: resolves the payment group, region, currencies and merchant settings into
 * catalog entries with the upstream's failure messages, then runs the quote math. Shared by the ramp API and the
 * hosted widget, so both quote alike.
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  findCountry,
  findCrypto,
  findFiat,
  findPayoutMethod,
  type PaymentMethodSpec,
  paymentGroups,
  paymentMethods,
  regionRestrictions,
} from './catalog.ts';
import { type BuyQuote, buyQuote, type SellQuote, sellQuote } from './quotes.ts';
import { rampMerchantProfile } from './ramp-merchants.ts';

export type Priced<T> = { ok: true; quote: T } | { ok: false; status: ContentfulStatusCode; message: string };

/** `fiat_amount` that makes pricing answer the upstream's 500 envelope (README, "Magic values"). */
export const FAILING_AMOUNT = 666.66;

export interface BuyPricingRequest {
  merchantId: string | undefined;
  paymentGroup: string;
  region: string | undefined;
  fiatCurrency: string | undefined;
  cryptoCurrency: string;
  fiatAmount?: number | undefined;
  cryptoAmount?: number | undefined;
  markup?: number | undefined;
  at: number;
}

export interface SellPricingRequest {
  merchantId: string | undefined;
  payoutMethod: string;
  region?: string | undefined;
  fiatCurrency: string | undefined;
  cryptoCurrency: string;
  fiatAmount?: number | undefined;
  cryptoAmount?: number | undefined;
  markup?: number | undefined;
  at: number;
}

const fail = (status: ContentfulStatusCode, message: string) => ({ ok: false as const, status, message });

function checkMarkup(markup: number | undefined): string | undefined {
  if (markup === undefined) return undefined;
  return markup < 0 || markup > 5 ? 'markup must be between 0 and 5' : undefined;
}

/** The slug a payment group resolves to in a region: the one whose countries include it (they never overlap). */
export function resolvePaymentMethod(group: string, region: string): PaymentMethodSpec | undefined {
  return paymentMethods.find((m) => m.payment_group === group && m.countries.includes(region));
}

export function priceBuy(request: BuyPricingRequest): Priced<BuyQuote> {
  const profile = rampMerchantProfile(request.merchantId);
  if (request.fiatAmount === FAILING_AMOUNT) return fail(500, 'Internal server error');
  const markupProblem = checkMarkup(request.markup);
  if (markupProblem) return fail(400, markupProblem);
  if (!paymentGroups.includes(request.paymentGroup)) {
    return fail(400, `Invalid payment method: ${request.paymentGroup} is not a payment group`);
  }
  if (!request.region) return fail(400, 'region is required');
  const country = findCountry(request.region);
  if (!country) return fail(400, 'Unsupported region');
  const method = resolvePaymentMethod(request.paymentGroup, country.iso);
  if (!method) return fail(400, 'Unsupported region');
  const fiat = findFiat(request.fiatCurrency ?? country.currency);
  if (!fiat) return fail(400, `Unsupported fiat currency: ${request.fiatCurrency}`);
  const crypto = findCrypto(request.cryptoCurrency);
  if (!crypto) return fail(400, `Unsupported crypto currency: ${request.cryptoCurrency}`);
  if (regionRestrictions[country.iso]?.includes(crypto.iso)) return fail(400, 'Unsupported region');
  if (profile.paymentGroups && !profile.paymentGroups.includes(method.payment_group)) {
    return fail(400, `Payment method not enabled for this merchant: ${method.payment_group}`);
  }
  if (method.disabled) return fail(400, `Payment method unavailable: ${method.slug}`);
  if (!method.currency.includes(fiat.iso)) {
    return fail(400, `Unsupported fiat currency for ${method.slug}: ${fiat.iso}`);
  }
  const result = buyQuote({
    method,
    fiat,
    crypto,
    at: request.at,
    markup: request.markup ?? profile.defaultMarkup,
    fiatAmount: request.fiatAmount,
    cryptoAmount: request.fiatAmount === undefined ? request.cryptoAmount : undefined,
  });
  return result.ok ? result : fail(400, result.message);
}

export function priceSell(request: SellPricingRequest): Priced<SellQuote> {
  const profile = rampMerchantProfile(request.merchantId);
  if (request.fiatAmount === FAILING_AMOUNT) return fail(500, 'Internal server error');
  const markupProblem = checkMarkup(request.markup);
  if (markupProblem) return fail(400, markupProblem);
  const method = findPayoutMethod(request.payoutMethod);
  if (!method) return fail(400, `Invalid payout method: ${request.payoutMethod}`);
  if (request.region !== undefined) {
    const country = findCountry(request.region);
    if (!country || !method.countries.includes(country.iso)) return fail(400, 'Unsupported region');
  }
  const fiat = findFiat(request.fiatCurrency ?? method.currency[0]);
  if (!fiat) return fail(400, `Unsupported fiat currency: ${request.fiatCurrency}`);
  const crypto = findCrypto(request.cryptoCurrency);
  if (!crypto) return fail(400, `Unsupported crypto currency: ${request.cryptoCurrency}`);
  if (profile.payoutSlugs && !profile.payoutSlugs.includes(method.slug)) {
    return fail(400, `Payout method not enabled for this merchant: ${method.slug}`);
  }
  if (method.disabled) return fail(400, `Payout method unavailable: ${method.slug}`);
  if (!method.currency.includes(fiat.iso)) {
    return fail(400, `Unsupported fiat currency for ${method.slug}: ${fiat.iso}`);
  }
  const result = sellQuote({
    method,
    fiat,
    crypto,
    at: request.at,
    markup: request.markup ?? profile.defaultMarkup,
    fiatAmount: request.cryptoAmount === undefined ? request.fiatAmount : undefined,
    cryptoAmount: request.cryptoAmount,
  });
  return result.ok ? result : fail(400, result.message);
}
