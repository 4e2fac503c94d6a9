/**
 * The sandbox's price feed: deterministic in the clock, so a pinned clock gives repeatable quotes and a moving
 * one gives prices that drift like a market (slow sines of the time, per asset, around realistic levels).
 */
import { type Crypto, type Fiat, findFiat } from './catalog.ts';

interface Wave {
  amplitude: number;
  periodMs: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

// The shortest wave moves BTC by a few euros per second, so two quotes a second apart already differ.
const volatile: readonly Wave[] = [
  { amplitude: 0.03, periodMs: 5 * 24 * HOUR },
  { amplitude: 0.012, periodMs: 7 * HOUR },
  { amplitude: 0.004, periodMs: 53 * MINUTE },
  { amplitude: 0.0012, periodMs: 7 * MINUTE },
  { amplitude: 0.0004, periodMs: 61_000 },
];

// Stablecoins stay within about ±0.12% of one dollar.
const stable: readonly Wave[] = [
  { amplitude: 0.0008, periodMs: 3 * HOUR },
  { amplitude: 0.0003, periodMs: 11 * MINUTE },
  { amplitude: 0.0001, periodMs: 67_000 },
];

/** A phase per asset and wave, so assets do not move in lockstep. */
function phase(code: string, wave: number): number {
  let hash = 2166136261;
  for (const char of `${code}#${wave}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return ((hash >>> 0) / 2 ** 32) * 2 * Math.PI;
}

function drift(code: string, waves: readonly Wave[], at: number): number {
  let factor = 1;
  waves.forEach((wave, index) => {
    factor += wave.amplitude * Math.sin((2 * Math.PI * at) / wave.periodMs + phase(code, index));
  });
  return factor;
}

const usd = findFiat('USD')!;

/** Mid-market EUR price of one unit of `crypto` at epoch milliseconds `at`. */
export function priceEur(crypto: Crypto, at: number): number {
  // Bridged assets (ETH on Base) follow their native asset's price, as they do in the market.
  const feedCode = crypto.iso === 'ETH_BASE' ? 'ETH' : crypto.iso;
  if ('usd' in crypto.base) return crypto.base.usd * usd.eur * drift(feedCode, stable, at);
  return crypto.base.eur * drift(feedCode, volatile, at);
}

/** Mid-market price of one unit of `crypto` in `fiat`, unrounded. */
export const priceIn = (crypto: Crypto, fiat: Fiat, at: number) => priceEur(crypto, at) / fiat.eur;
