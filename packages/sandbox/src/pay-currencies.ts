/**
 * The payments side's currencies, chains and fixed prices: fiat the orders may be priced in, crypto a payer may
 * pay with, and the Currency objects the payments API returns for them. Prices are fixed so amounts are
 * predictable in tests; the real service quotes live rates.
 */
import { stableUuid } from './pay-ids.ts';

export interface Blockchain {
  id: string;
  name: string;
}

/** spec.md "Currency object", full form. Fiat currencies have no blockchain (`null`), as PHTN saw live. */
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

interface FiatRow {
  name: string;
  /** Units of this currency per 1 USD. */
  perUsd: number;
  /** Decimals allowed in a price. */
  digits: number;
}

/** The fiat list of facts.md §7 (plus NOK); rates are round numbers, good enough for a simulator. */
export const FIATS: Readonly<Record<string, FiatRow>> = {
  USD: { name: 'US Dollar', perUsd: 1, digits: 2 },
  EUR: { name: 'Euro', perUsd: 0.92, digits: 2 },
  GBP: { name: 'British Pound', perUsd: 0.79, digits: 2 },
  BRL: { name: 'Brazilian Real', perUsd: 5.4, digits: 2 },
  CAD: { name: 'Canadian Dollar', perUsd: 1.36, digits: 2 },
  DKK: { name: 'Danish Krone', perUsd: 6.88, digits: 2 },
  PLN: { name: 'Polish Zloty', perUsd: 3.95, digits: 2 },
  MXN: { name: 'Mexican Peso', perUsd: 18.2, digits: 2 },
  CHF: { name: 'Swiss Franc', perUsd: 0.88, digits: 2 },
  SEK: { name: 'Swedish Krona', perUsd: 10.6, digits: 2 },
  NOK: { name: 'Norwegian Krone', perUsd: 10.8, digits: 2 },
  JPY: { name: 'Japanese Yen', perUsd: 151, digits: 0 },
  AUD: { name: 'Australian Dollar', perUsd: 1.52, digits: 2 },
  INR: { name: 'Indian Rupee', perUsd: 83.4, digits: 2 },
  SGD: { name: 'Singapore Dollar', perUsd: 1.35, digits: 2 },
  KZT: { name: 'Kazakhstani Tenge', perUsd: 470, digits: 2 },
  RON: { name: 'Romanian Leu', perUsd: 4.58, digits: 2 },
  ZAR: { name: 'South African Rand', perUsd: 18.3, digits: 2 },
  UAH: { name: 'Ukrainian Hryvnia', perUsd: 41, digits: 2 },
  TWD: { name: 'New Taiwan Dollar', perUsd: 32.2, digits: 2 },
  IDR: { name: 'Indonesian Rupiah', perUsd: 16100, digits: 2 },
  HKD: { name: 'Hong Kong Dollar', perUsd: 7.8, digits: 2 },
  NZD: { name: 'New Zealand Dollar', perUsd: 1.66, digits: 2 },
  THB: { name: 'Thai Baht', perUsd: 36.5, digits: 2 },
  CZK: { name: 'Czech Koruna', perUsd: 23.1, digits: 2 },
  TRY: { name: 'Turkish Lira', perUsd: 32.5, digits: 2 },
  BGN: { name: 'Bulgarian Lev', perUsd: 1.8, digits: 2 },
  ILS: { name: 'Israeli New Shekel', perUsd: 3.7, digits: 2 },
  HUF: { name: 'Hungarian Forint', perUsd: 362, digits: 2 },
};

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

/** Display names; payments webhooks carry these capitalised names (`"Ethereum"`), facts.md §6. */
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
  usd: number;
  /** Decimals shown and charged. */
  precision: number;
  /** On-chain decimals. */
  decimals: number;
  stable: boolean;
  native: boolean;
}

/** What a payer can pay with, keyed by the `SYMBOL_CHAIN` codes the ramp side uses too. */
export const CRYPTOS: Readonly<Record<string, CryptoRow>> = {
  USDC_BASE: coin('USDC', 'USD Coin', 'base', 1, 6, 6, true, false),
  USDC_ETHEREUM: coin('USDC', 'USD Coin', 'ethereum', 1, 6, 6, true, false),
  USDC_POLYGON: coin('USDC', 'USD Coin', 'polygon', 1, 6, 6, true, false),
  USDC_ARBITRUM: coin('USDC', 'USD Coin', 'arbitrum', 1, 6, 6, true, false),
  USDC_SOLANA: coin('USDC', 'USD Coin', 'solana', 1, 6, 6, true, false),
  USDT_TRON: coin('USDT', 'Tether USD', 'tron', 1, 6, 6, true, false),
  USDT_ETHEREUM: coin('USDT', 'Tether USD', 'ethereum', 1, 6, 6, true, false),
  USDT_POLYGON: coin('USDT', 'Tether USD', 'polygon', 1, 6, 6, true, false),
  USDT_SOLANA: coin('USDT', 'Tether USD', 'solana', 1, 6, 6, true, false),
  USDT_TON: coin('USDT', 'Tether USD', 'ton', 1, 6, 6, true, false),
  ETH_ETHEREUM: coin('ETH', 'Ether', 'ethereum', 3200, 8, 18, false, true),
  ETH_BASE: coin('ETH', 'Ether', 'base', 3200, 8, 18, false, true),
  ETH_ARBITRUM: coin('ETH', 'Ether', 'arbitrum', 3200, 8, 18, false, true),
  POL_POLYGON: coin('POL', 'Polygon', 'polygon', 0.5, 6, 18, false, true),
  BTC_BITCOIN: coin('BTC', 'Bitcoin', 'bitcoin', 65000, 8, 8, false, true),
  LTC_LITECOIN: coin('LTC', 'Litecoin', 'litecoin', 80, 8, 8, false, true),
  SOL_SOLANA: coin('SOL', 'Solana', 'solana', 150, 6, 9, false, true),
  TRX_TRON: coin('TRX', 'TRON', 'tron', 0.12, 6, 6, false, true),
  XRP_XRP: coin('XRP', 'XRP', 'xrp', 0.55, 6, 6, false, true),
  TON_TON: coin('TON', 'Toncoin', 'ton', 5.5, 6, 9, false, true),
};

/** What an order is quoted in until the payer picks something else (the "default payment cryptocurrency"). */
export const DEFAULT_PAY_CURRENCY = 'USDC_BASE';

/** Bare symbols payers and tests may use for a native coin: `ETH` means ether on Ethereum. */
const ALIASES: Readonly<Record<string, string>> = {
  ETH: 'ETH_ETHEREUM',
  BTC: 'BTC_BITCOIN',
  LTC: 'LTC_LITECOIN',
  SOL: 'SOL_SOLANA',
  TRX: 'TRX_TRON',
  XRP: 'XRP_XRP',
  TON: 'TON_TON',
  POL: 'POL_POLYGON',
  USDC: 'USDC_BASE',
  USDT: 'USDT_TRON',
};

function coin(
  symbol: string,
  name: string,
  chain: Chain,
  usd: number,
  precision: number,
  decimals: number,
  stable: boolean,
  native: boolean,
): CryptoRow {
  return { symbol, name, chain, usd, precision, decimals, stable, native };
}

/** The table code for what a caller typed (`usdc_base`, `ETH`, `USDT_TRON`), or undefined. */
export function cryptoCode(input: string): string | undefined {
  const upper = input.trim().toUpperCase();
  const code = ALIASES[upper] ?? upper;
  return CRYPTOS[code] ? code : undefined;
}

export const isFiat = (code: string): boolean => FIATS[code] !== undefined;
export const isChain = (value: string): value is Chain => (CHAINS as readonly string[]).includes(value);

export function blockchainOf(chain: Chain): Blockchain {
  return { id: stableUuid(`chain:${chain}`), name: CHAIN_NAMES[chain] };
}

export function fiatCurrency(code: string): Currency {
  const row = FIATS[code];
  if (!row) throw new Error(`unknown fiat ${code}`);
  return {
    id: stableUuid(`fiat:${code}`),
    symbol: code,
    precision: row.digits,
    type: 'FIAT',
    flows: ['PAYMENT'],
    blockchain: null,
    name: row.name,
    officialId: code,
    blockchainId: null,
    isStablecoin: false,
    decimals: row.digits,
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

/** Fiat → crypto at the fixed table rates, rounded up to the crypto's precision so the payer never falls short. */
export function fiatToCrypto(fiatAmount: string, fiat: string, code: string): string {
  const fiatRow = FIATS[fiat];
  const row = CRYPTOS[code];
  if (!fiatRow || !row) throw new Error(`no rate for ${fiat}/${code}`);
  const usd = Number(fiatAmount) / fiatRow.perUsd;
  const scale = 10 ** row.precision;
  // The epsilon keeps 10.000000 from becoming 10.000001 through binary float error before the ceil.
  return (Math.ceil((usd / row.usd) * scale - 1e-7) / scale).toFixed(row.precision);
}

/** Converts between fiat currencies at the table rates, to `digits` decimals of the target. */
export function fiatToFiat(amount: string, from: string, to: string): string {
  const a = FIATS[from];
  const b = FIATS[to];
  if (!a || !b) throw new Error(`no rate for ${from}/${to}`);
  return ((Number(amount) / a.perUsd) * b.perUsd).toFixed(b.digits);
}

/** Rate of `to` over `from` (units of `to` per unit of `from`), as purchase.rateMerchantOverOrder. */
export function fiatRate(from: string, to: string): string {
  const a = FIATS[from];
  const b = FIATS[to];
  if (!a || !b) throw new Error(`no rate for ${from}/${to}`);
  return String(Number((b.perUsd / a.perUsd).toFixed(8)));
}
