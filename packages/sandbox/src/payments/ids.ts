/**
 * Identifiers of the payments side: order ids, UUIDs, and realistic-looking addresses and transaction hashes.
 * Addresses are derived from a seed (merchant + customer + chain) so a payment route is permanent across resets.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { bytesFrom } from '../random.ts';
import type { Chain } from './currencies.ts';
import { stableUuid } from './stable-uuid.ts';

export { stableUuid };

const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const HEX = '0123456789abcdef';

/** Where the pure order functions get their randomness; tests of those functions can pass a seeded one. */
export interface RandomSource {
  uuid(): string;
  /** A fresh 12-character order id such as `A5WX6BN6CCPS`. */
  orderId(): string;
  /** A fresh seed for addresses and hashes that need no permanence. */
  seed(): string;
}

export const cryptoRandom: RandomSource = {
  uuid: () => crypto.randomUUID(),
  orderId: () => Array.from({ length: 12 }, () => UPPER_ALNUM[randomInt(UPPER_ALNUM.length)]).join(''),
  seed: () => randomBytes(16).toString('hex'),
};

function charsFrom(seed: string, alphabet: string, length: number): string {
  return Array.from(bytesFrom(seed, length), (byte) => alphabet[byte % alphabet.length]).join('');
}

/** An address of the chain's usual shape. Only the shape is real; nothing checks these on a network. */
export function addressFor(chain: Chain, seed: string): string {
  const s = `${chain}:${seed}`;
  switch (chain) {
    case 'base':
    case 'ethereum':
    case 'polygon':
    case 'arbitrum':
      return `0x${charsFrom(s, HEX, 40)}`;
    case 'tron':
      return `T${charsFrom(s, BASE58, 33)}`;
    case 'solana':
      return charsFrom(s, BASE58.slice(1), 1) + charsFrom(`${s}/rest`, BASE58, 43);
    case 'bitcoin':
      return `bc1q${charsFrom(s, BECH32, 38)}`;
    case 'litecoin':
      return `ltc1q${charsFrom(s, BECH32, 38)}`;
    case 'xrp':
      return `r${charsFrom(s, BASE58, 33)}`;
    case 'ton':
      return `UQ${charsFrom(s, BASE64URL, 46)}`;
  }
}

/** An XRP destination tag or TON comment: digits, as exchanges commonly issue them. */
export function memoFor(seed: string): string {
  const bytes = bytesFrom(`memo:${seed}`, 4);
  const n = ((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0);
  return String(100_000_000 + ((n >>> 0) % 900_000_000));
}

export function txHashFor(chain: Chain, seed: string): string {
  switch (chain) {
    case 'base':
    case 'ethereum':
    case 'polygon':
    case 'arbitrum':
      return `0x${charsFrom(seed, HEX, 64)}`;
    case 'solana':
      return charsFrom(seed, BASE58, 88);
    case 'xrp':
      return charsFrom(seed, HEX, 64).toUpperCase();
    default:
      return charsFrom(seed, HEX, 64);
  }
}
