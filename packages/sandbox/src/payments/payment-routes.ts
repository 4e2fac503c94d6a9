/** Payment routes: permanent deposit addresses per merchant, customer (externalId) and chain. */

import { type Chain, CRYPTOS, type Currency, codesOnChain, fiatCurrency, MEMO_CHAINS } from './currencies.ts';
import { addressFor, memoFor, stableUuid } from './ids.ts';
import { MERCHANT_CURRENCY } from './order.ts';

/** A payment route as the API returns it (docs/upstream.md#payment-routes). */
export interface PaymentRoute {
  id: string;
  merchantId: string;
  externalId: string;
  available: boolean;
  address: string;
  memo: string;
  chainName: Chain;
  supportedCurrencies: string[];
  userEmail: string;
  userName: string;
  createdAt: string;
  merchant: {
    id: string;
    name: string;
    logoUrl: string;
    roles: string[];
    localCurrency: Currency;
    countryCode: string;
    coverPercentage: string;
  };
}

export interface RouteRequest {
  merchantKey: string;
  merchantUuid: string;
  externalId: string;
  chain: Chain;
  email: string;
  name: string;
  now: number;
}

/**
 * The route is a function of (merchant, externalId, chain) only, so asking again, even after a reset, gives the
 * same address. On memo chains the merchant shares one address and the memo tells customers apart.
 */
export function makeRoute(request: RouteRequest): PaymentRoute {
  const { merchantKey, externalId, chain } = request;
  const seed = `route:${merchantKey}:${externalId}`;
  const memo = MEMO_CHAINS.has(chain);
  return {
    id: stableUuid(`${seed}:${chain}`),
    merchantId: request.merchantUuid,
    externalId,
    available: true,
    address: addressFor(chain, memo ? `merchant:${merchantKey}` : seed),
    memo: memo ? memoFor(`${seed}:${chain}`) : '',
    chainName: chain,
    supportedCurrencies: [...new Set(codesOnChain(chain).map((code) => CRYPTOS[code]?.symbol ?? code))],
    userEmail: request.email,
    userName: request.name,
    createdAt: new Date(request.now).toISOString(),
    merchant: {
      id: request.merchantUuid,
      name: `Sandbox merchant ${merchantKey}`,
      logoUrl: '',
      roles: ['MERCHANT'],
      localCurrency: fiatCurrency(MERCHANT_CURRENCY),
      countryCode: 'US',
      coverPercentage: '0',
    },
  };
}
