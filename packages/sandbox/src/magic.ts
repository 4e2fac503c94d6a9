/**
 * Every magic value of the sandbox: inputs that force an outcome, so a client can test a failure, an odd merchant
 * or an underpayment on purpose, as stripe-mock's magic card numbers do. The rooms read them from here only, and
 * README.md ("Magic values") lists each with its effect: change both together.
 */
import type { RampMerchantProfile } from './ramp/merchant-profile.ts';

interface RampMagic {
  readonly failingAmount: number;
  readonly merchants: Readonly<Record<string, Partial<RampMerchantProfile>>>;
  readonly regionRestrictions: Readonly<Record<string, readonly string[]>>;
}

export const RAMP_MAGIC: RampMagic = {
  /** `fiat_amount` that makes pricing (buy or sell) answer the upstream's 500 envelope. */
  failingAmount: 666.66,
  /**
   * Ramp merchants (`pk_sandbox_<id>`) whose dashboard is set up unlike the default merchant's: `ratelimited` is
   * always throttled, `limited` has a few methods enabled, `markup2` a default markup of 2%.
   */
  merchants: {
    ratelimited: { alwaysRateLimited: true },
    limited: {
      paymentGroups: ['creditcard', 'apple-pay', 'google-pay'],
      payoutSlugs: ['bank-transfer'],
    },
    markup2: { defaultMarkup: 2 },
  },
  /** Cryptos a region may not buy: the sandbox's stand-in for regulatory limits. */
  regionRestrictions: { US: ['TON'] },
};

export const PAYMENTS_MAGIC = {
  /** `purchase.price` that makes order creation fail with a 500 envelope (no order is made). */
  failingPrice: '13.13',
  /** `purchase.name` (any case) of an order created already past its expiry. */
  expireImmediately: 'expire-immediately',
  /** Payer email that turns every simulated payment of kind exact or overpaid into an underpayment. */
  underpaidEmail: 'underpaid@example.com',
} as const;
