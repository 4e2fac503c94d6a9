/**
 * What a ramp merchant's dashboard would have configured. Every sandbox merchant gets the defaults; a few magic
 * merchant ids (README, "Magic values") stand for merchants set up differently, so clients can test those cases.
 */
import { RAMP_MAGIC } from '../magic.ts';

import type { RampMerchantProfile } from './merchant-profile.ts';

export type { RampMerchantProfile };

const defaults: RampMerchantProfile = { defaultMarkup: 0, alwaysRateLimited: false };

/** The magic merchants (magic.ts), each the default profile with what it changes. */
const magic: Readonly<Record<string, RampMerchantProfile>> = Object.fromEntries(
  Object.entries(RAMP_MAGIC.merchants).map(([id, changes]) => [id, { ...defaults, ...changes }]),
);

export const rampMerchantProfile = (merchantId: string | undefined): RampMerchantProfile =>
  (merchantId !== undefined ? magic[merchantId] : undefined) ?? defaults;
