/**
 * What a ramp merchant's dashboard would have configured. Every sandbox merchant gets the defaults; a few magic
 * merchant ids (README, "Magic values") stand for merchants set up differently, so clients can test those cases.
 */

export interface RampMerchantProfile {
  /** Payment groups enabled for the merchant; undefined means all. */
  paymentGroups?: readonly string[];
  /** Payout slugs enabled for the merchant; undefined means all. */
  payoutSlugs?: readonly string[];
  /** The dashboard's markup (Settings, Affiliate Fee), percent; a request's `markup` overrides it. */
  defaultMarkup: number;
  /** Every ramp API call of this merchant is throttled. */
  alwaysRateLimited: boolean;
}

const defaults: RampMerchantProfile = { defaultMarkup: 0, alwaysRateLimited: false };

const magic: Readonly<Record<string, RampMerchantProfile>> = {
  ratelimited: { ...defaults, alwaysRateLimited: true },
  limited: {
    ...defaults,
    paymentGroups: ['creditcard', 'apple-pay', 'google-pay'],
    payoutSlugs: ['bank-transfer'],
  },
  markup2: { ...defaults, defaultMarkup: 2 },
};

export const rampMerchantProfile = (merchantId: string | undefined): RampMerchantProfile =>
  (merchantId !== undefined ? magic[merchantId] : undefined) ?? defaults;
