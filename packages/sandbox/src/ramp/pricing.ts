/**
 * From a pricing request to a quote: resolves the payment group, region, currencies and merchant settings into
 * catalog entries with the upstream's failure messages, then runs the quote math. Shared by the ramp API and the
 * hosted widget, so both quote alike.
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { RAMP_MAGIC } from '../magic.ts';
import {
  type Crypto,
  type Fiat,
  findCountry,
  findCrypto,
  findFiat,
  findPayoutMethod,
  type MethodSpec,
  type PaymentMethodSpec,
  paymentGroups,
  paymentMethods,
} from './catalog.ts';
import { rampMerchantProfile } from './merchants.ts';
import { type BuyQuote, buyQuote, type QuoteResult, type SellQuote, sellQuote } from './quote-math.ts';

export type Priced<T> = { ok: true; quote: T } | { ok: false; status: ContentfulStatusCode; message: string };

/** What a pricing request says in either direction, once the HTTP layer has read it. */
interface PricingRequest {
  merchantId: string | undefined;
  region?: string | undefined;
  fiatCurrency: string | undefined;
  cryptoCurrency: string;
  fiatAmount?: number | undefined;
  cryptoAmount?: number | undefined;
  markup?: number | undefined;
  at: number;
}

export interface BuyPricingRequest extends PricingRequest {
  paymentGroup: string;
  /**
   * Required by the upstream: a request without it fails (docs/upstream.md#buy-pricing), so callers must pass
   * it even if empty.
   */
  region: string | undefined;
}

export interface SellPricingRequest extends PricingRequest {
  payoutMethod: string;
}

const fail = (status: ContentfulStatusCode, message: string) => ({ ok: false as const, status, message });

/** The checks both directions make first: the magic failing amount, then the markup's range. */
function requestProblem(request: PricingRequest): Priced<never> | undefined {
  if (request.fiatAmount === RAMP_MAGIC.failingAmount) return fail(500, 'Internal server error');
  const { markup } = request;
  if (markup !== undefined && (markup < 0 || markup > 5)) return fail(400, 'markup must be between 0 and 5');
  return undefined;
}

/**
 * The checks both directions make once the method, fiat and crypto are resolved: the merchant has the method
 * enabled, the method is on, and it takes the fiat. `kind` names the method in messages (Payment / Payout).
 */
function methodProblem(
  kind: 'Payment' | 'Payout',
  method: MethodSpec,
  fiat: Fiat,
  enabled: { list: readonly string[] | undefined; key: string },
): Priced<never> | undefined {
  if (enabled.list && !enabled.list.includes(enabled.key)) {
    return fail(400, `${kind} method not enabled for this merchant: ${enabled.key}`);
  }
  if (method.disabled) return fail(400, `${kind} method unavailable: ${method.slug}`);
  if (!method.currency.includes(fiat.iso)) {
    return fail(400, `Unsupported fiat currency for ${method.slug}: ${fiat.iso}`);
  }
  return undefined;
}

/**
 * What either quote is computed from besides the method and amounts: the fiat (the request's, else
 * `fallbackFiat`) and crypto, each with its failure, the time, and the request's markup or the merchant's default.
 */
function quoteBasis(
  request: PricingRequest,
  fallbackFiat: string | undefined,
  defaultMarkup: number,
): { fiat: Fiat; crypto: Crypto; at: number; markup: number } | Priced<never> {
  const fiat = findFiat(request.fiatCurrency ?? fallbackFiat);
  if (!fiat) return fail(400, `Unsupported fiat currency: ${request.fiatCurrency}`);
  const crypto = findCrypto(request.cryptoCurrency);
  if (!crypto) return fail(400, `Unsupported crypto currency: ${request.cryptoCurrency}`);
  return { fiat, crypto, at: request.at, markup: request.markup ?? defaultMarkup };
}

/** The quote math's own refusals (amount limits, nothing left after fees) are 400s. */
const quoted = <T>(result: QuoteResult<T>): Priced<T> => (result.ok ? result : fail(400, result.message));

/** The slug a payment group resolves to in a region: the one whose countries include it (they never overlap). */
export function resolvePaymentMethod(group: string, region: string): PaymentMethodSpec | undefined {
  return paymentMethods.find((m) => m.payment_group === group && m.countries.includes(region));
}

export function priceBuy(request: BuyPricingRequest): Priced<BuyQuote> {
  const profile = rampMerchantProfile(request.merchantId);
  const problem = requestProblem(request);
  if (problem) return problem;
  if (!paymentGroups.includes(request.paymentGroup)) {
    return fail(400, `Invalid payment method: ${request.paymentGroup} is not a payment group`);
  }
  if (!request.region) return fail(400, 'region is required');
  const country = findCountry(request.region);
  if (!country) return fail(400, 'Unsupported region');
  const method = resolvePaymentMethod(request.paymentGroup, country.iso);
  if (!method) return fail(400, 'Unsupported region');
  const basis = quoteBasis(request, country.currency, profile.defaultMarkup);
  if ('ok' in basis) return basis;
  if (RAMP_MAGIC.regionRestrictions[country.iso]?.includes(basis.crypto.iso))
    return fail(400, 'Unsupported region');
  const enabled = { list: profile.paymentGroups, key: method.payment_group };
  const refused = methodProblem('Payment', method, basis.fiat, enabled);
  if (refused) return refused;
  // Fiat wins when both amounts are given.
  const cryptoAmount = request.fiatAmount === undefined ? request.cryptoAmount : undefined;
  return quoted(buyQuote({ ...basis, method, fiatAmount: request.fiatAmount, cryptoAmount }));
}

export function priceSell(request: SellPricingRequest): Priced<SellQuote> {
  const profile = rampMerchantProfile(request.merchantId);
  const problem = requestProblem(request);
  if (problem) return problem;
  const method = findPayoutMethod(request.payoutMethod);
  if (!method) return fail(400, `Invalid payout method: ${request.payoutMethod}`);
  if (request.region !== undefined) {
    const country = findCountry(request.region);
    if (!country || !method.countries.includes(country.iso)) return fail(400, 'Unsupported region');
  }
  const basis = quoteBasis(request, method.currency[0], profile.defaultMarkup);
  if ('ok' in basis) return basis;
  const refused = methodProblem('Payout', method, basis.fiat, {
    list: profile.payoutSlugs,
    key: method.slug,
  });
  if (refused) return refused;
  // Crypto wins when both amounts are given.
  const fiatAmount = request.cryptoAmount === undefined ? request.fiatAmount : undefined;
  return quoted(sellQuote({ ...basis, method, fiatAmount, cryptoAmount: request.cryptoAmount }));
}
