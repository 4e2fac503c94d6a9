/**
 * The payments side's currencies and chains: crypto a payer may pay with, on which chain, and the Currency
 * objects the payments API returns. Rates come from the ramp side's catalog and price feed, so a pay order and
 * a ramp quote made at the same (sandbox) time agree.
 */
import { type Crypto, cryptos, type Fiat, findFiat } from '../ramp/catalog.ts';
import { priceIn } from '../ramp/price-feed.ts';
import { stableUuid } from './stable-uuid.ts';

export interface Blockchain {
  id: string;
  name: string;
}

/**
 * A Currency object, full form (docs/upstream.md#currencies). Fiat currencies have no blockchain (`null`), as
 * PHTN saw live.
 */
export interface Currency {
  id: string;
  symbol: string;
  precision: number;
  type: 'FIAT' | 'CRYPTO';
  flows: string[];
  blockchain: Blockchain | null;
  name: string;
  officialId: string;
  blockchainId: string | null;
  isStablecoin: boolean;
  decimals: number;
  isNative: boolean;
}

/** Currencies whose prices have no minor unit. */
const ZERO_DECIMAL: ReadonlySet<string> = new Set(['JPY', 'VND', 'KRW', 'CLP']);

/** Decimals a price in this fiat may have. */
export const fiatDigits = (code: string) => (ZERO_DECIMAL.has(code) ? 0 : 2);

/** The fiat an order may be priced in: the ramp catalog's list, so the whole sandbox shares one FX table. */
export const isFiat = (code: string): boolean => findFiat(code) !== undefined;

export const CHAINS = [
  'base',
  'ethereum',
  'polygon',
  'arbitrum',
  'tron',
  'solana',
  'bitcoin',
  'litecoin',
  'xrp',
  'ton',
] as const;
export type Chain = (typeof CHAINS)[number];

/**
 * Display names; payments webhooks carry these capitalised names (`"Ethereum"`),
 * docs/upstream.md#payments-webhooks.
 */
export const CHAIN_NAMES: Readonly<Record<Chain, string>> = {
  base: 'Base',
  ethereum: 'Ethereum',
  polygon: 'Polygon',
  arbitrum: 'Arbitrum',
  tron: 'Tron',
  solana: 'Solana',
  bitcoin: 'Bitcoin',
  litecoin: 'Litecoin',
  xrp: 'XRP Ledger',
  ton: 'TON',
};

/** Chains whose deposits share one address and are told apart by a memo (destination tag / comment). */
export const MEMO_CHAINS: ReadonlySet<Chain> = new Set<Chain>(['xrp', 'ton']);

interface CryptoRow {
  symbol: string;
  name: string;
  chain: Chain;
  /** Catalog code whose price this one follows (bridged copies follow the original). */
  feed: string;
  /** Decimals shown and charged. */
  precision: number;
  /** On-chain decimals. */
  decimals: number;
  stable: boolean;
  native: boolean;
}

/** What a payer can pay with, keyed by the codes the ramp side uses (`USDC_BASE`, `ETH`, `USDT_TRON`). */
export const CRYPTOS: Readonly<Record<string, CryptoRow>> = {
  USDC_BASE: coin('USDC', 'USD Coin', 'base', 'USDC_BASE', 6, 6, true, false),
  USDC_ETHEREUM: coin('USDC', 'USD Coin', 'ethereum', 'USDC_ETHEREUM', 6, 6, true, false),
  USDC_POLYGON: coin('USDC', 'USD Coin', 'polygon', 'USDC_POLYGON', 6, 6, true, false),
  USDC_ARBITRUM: coin('USDC', 'USD Coin', 'arbitrum', 'USDC_ARBITRUM', 6, 6, true, false),
  USDC_SOLANA: coin('USDC', 'USD Coin', 'solana', 'USDC_SOLANA', 6, 6, true, false),
  USDT_TRON: coin('USDT', 'Tether USD', 'tron', 'USDT_TRON', 6, 6, true, false),
  USDT_ETHEREUM: coin('USDT', 'Tether USD', 'ethereum', 'USDT_ETHEREUM', 6, 6, true, false),
  USDT_POLYGON: coin('USDT', 'Tether USD', 'polygon', 'USDT_ETHEREUM', 6, 6, true, false),
  USDT_SOLANA: coin('USDT', 'Tether USD', 'solana', 'USDT_SOLANA', 6, 6, true, false),
  USDT_TON: coin('USDT', 'Tether USD', 'ton', 'USDT_ETHEREUM', 6, 6, true, false),
  ETH: coin('ETH', 'Ether', 'ethereum', 'ETH', 8, 18, false, true),
  ETH_BASE: coin('ETH', 'Ether', 'base', 'ETH_BASE', 8, 18, false, true),
  ETH_ARBITRUM: coin('ETH', 'Ether', 'arbitrum', 'ETH', 8, 18, false, true),
  BTC: coin('BTC', 'Bitcoin', 'bitcoin', 'BTC', 8, 8, false, true),
  LTC: coin('LTC', 'Litecoin', 'litecoin', 'LTC', 8, 8, false, true),
  SOL: coin('SOL', 'Solana', 'solana', 'SOL', 6, 9, false, true),
  TRX: coin('TRX', 'TRON', 'tron', 'TRX', 6, 6, false, true),
  XRP: coin('XRP', 'XRP', 'xrp', 'XRP', 6, 6, false, true),
  TON: coin('TON', 'Toncoin', 'ton', 'TON', 6, 9, false, true),
};

/** What an order is quoted in until the payer picks something else (the "default payment cryptocurrency"). */
export const DEFAULT_PAY_CURRENCY = 'USDC_BASE';

/** Bare symbols payers and tests may use for a native coin: `ETH` means ether on Ethereum. */
const ALIASES: Readonly<Record<string, string>> = {
  ETH_ETHEREUM: 'ETH',
  BTC_BITCOIN: 'BTC',
  LTC_LITECOIN: 'LTC',
  SOL_SOLANA: 'SOL',
  TRX_TRON: 'TRX',
  XRP_XRP: 'XRP',
  TON_TON: 'TON',
  USDC: 'USDC_BASE',
  USDT: 'USDT_TRON',
};

function coin(
  symbol: string,
  name: string,
  chain: Chain,
  feed: string,
  precision: number,
  decimals: number,
  stable: boolean,
  native: boolean,
): CryptoRow {
  return { symbol, name, chain, feed, precision, decimals, stable, native };
}

/** The table code for what a caller typed (`usdc_base`, `ETH`, `USDT_TRON`), or undefined. */
export function cryptoCode(input: string): string | undefined {
  const upper = input.trim().toUpperCase();
  const code = ALIASES[upper] ?? upper;
  return CRYPTOS[code] ? code : undefined;
}

export const isChain = (value: string): value is Chain => (CHAINS as readonly string[]).includes(value);

export function blockchainOf(chain: Chain): Blockchain {
  return { id: stableUuid(`chain:${chain}`), name: CHAIN_NAMES[chain] };
}

export function fiatCurrency(code: string): Currency {
  const row = fiatRow(code);
  const digits = fiatDigits(code);
  return {
    id: stableUuid(`fiat:${code}`),
    symbol: code,
    precision: digits,
    type: 'FIAT',
    flows: ['PAYMENT'],
    blockchain: null,
    name: row.name,
    officialId: code,
    blockchainId: null,
    isStablecoin: false,
    decimals: digits,
    isNative: false,
  };
}

export function cryptoCurrency(code: string): Currency {
  const row = CRYPTOS[code];
  if (!row) throw new Error(`unknown crypto ${code}`);
  const blockchain = blockchainOf(row.chain);
  return {
    id: stableUuid(`crypto:${code}`),
    symbol: row.symbol,
    precision: row.precision,
    type: 'CRYPTO',
    flows: ['PAYMENT'],
    blockchain,
    name: row.name,
    officialId: code,
    blockchainId: blockchain.id,
    isStablecoin: row.stable,
    decimals: row.decimals,
    isNative: row.native,
  };
}

/** Codes payable on a chain, e.g. base → USDC_BASE, ETH_BASE. */
export function codesOnChain(chain: Chain): string[] {
  return Object.keys(CRYPTOS).filter((code) => CRYPTOS[code]?.chain === chain);
}

function fiatRow(code: string): Fiat {
  const row = findFiat(code);
  if (!row) throw new Error(`unknown fiat ${code}`);
  return row;
}

function feedOf(code: string): Crypto {
  const feed = CRYPTOS[code]?.feed;
  const row = cryptos.find((c) => c.iso === feed);
  if (!row) throw new Error(`no price feed for ${code}`);
  return row;
}

/** Mid-market price of one unit of the crypto in a fiat at sandbox time `at`. */
export const cryptoPrice = (code: string, fiat: string, at: number) =>
  priceIn(feedOf(code), fiatRow(fiat), at);

/** Fiat → crypto at the feed's price, rounded up to the crypto's precision so the payer never falls short. */
export function fiatToCrypto(fiatAmount: string, fiat: string, code: string, at: number): string {
  const precision = CRYPTOS[code]?.precision ?? 8;
  const scale = 10 ** precision;
  // The epsilon keeps 10.000000 from becoming 10.000001 through binary float error before the ceil.
  return (Math.ceil((Number(fiatAmount) / cryptoPrice(code, fiat, at)) * scale - 1e-7) / scale).toFixed(
    precision,
  );
}

/** Converts between fiat currencies at the catalog's FX table, to the target's decimals. */
export function fiatToFiat(amount: string, from: string, to: string): string {
  return ((Number(amount) * fiatRow(from).eur) / fiatRow(to).eur).toFixed(fiatDigits(to));
}

/** Units of `to` per unit of `from`, as purchase.rateMerchantOverOrder. */
export function fiatRate(from: string, to: string): string {
  return String(Number((fiatRow(from).eur / fiatRow(to).eur).toFixed(8)));
}
