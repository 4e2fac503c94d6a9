/** What the ramp sandbox knows of one merchant: its enabled methods, its markup, its throttling (merchants.ts). */
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
