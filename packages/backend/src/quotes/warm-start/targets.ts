/**
 * Which combinations priming quotes (quotes/warm-start/priming.ts), busiest first:
 * 1. the busiest this backend was asked for before it stopped, recorded every RECORD_EVERY_MS in DATA_DIR's
 *    `quote-popularity.json` (SQLite only: with DATABASE_URL the data directory may be no one's), with an amount
 *    a shopper asked;
 * 2. then what the widget asks first on a page: each country's catalog defaults (its default payment method, its
 *    fiat and the default crypto), DEFAULT_COUNTRY first, then the countries in the ramp's order, at an amount
 *    inside the method's limits.
 * Buy only: a sell combination does not say its country.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { assembleCatalog } from '../../catalog/assemble.ts';
import type { RampClient } from '../../upstream/ramp-client.ts';
import type { QuoteEngine } from '../engine/types.ts';
import type { FxRates } from '../fx.ts';
import type { PrimeTarget } from './priming.ts';

/** Combinations primed at most (the sandbox load asks for 50). */
export const MAX_PRIMED = 50;
export const RECORD_EVERY_MS = 30_000;
const FILE = 'quote-popularity.json';
/** What a shopper is first shown, as the widget starts (a round amount most methods take). */
const FIRST_AMOUNT = 100;

export const popularityFile = (dataDir: string) => join(dataDir, FILE);

const recordedSchema = z.object({
  combinations: z
    .array(
      z.object({
        country: z.string().regex(/^[A-Z]{2}$/),
        fiat: z.string().min(1).max(16),
        crypto: z.string().min(1).max(32),
        method: z.string().min(1).max(64),
        fiatAmount: z
          .string()
          .regex(/^\d+(\.\d+)?$/)
          .optional(),
        cryptoAmount: z
          .string()
          .regex(/^\d+(\.\d+)?$/)
          .optional(),
      }),
    )
    .max(MAX_PRIMED),
});

/** The busiest buy combinations now, as priming would quote them. */
export function busiestNow(engine: Pick<QuoteEngine, 'busiest'>): PrimeTarget[] {
  const targets: PrimeTarget[] = [];
  for (const { side, request } of engine.busiest(MAX_PRIMED * 2)) {
    if (side !== 'buy' || !('region' in request)) continue;
    const amount =
      request.fiatAmount !== undefined
        ? { fiatAmount: request.fiatAmount }
        : request.cryptoAmount !== undefined
          ? { cryptoAmount: request.cryptoAmount }
          : undefined;
    if (!amount) continue;
    targets.push({
      side,
      country: request.region.toUpperCase(),
      fiat: request.fiat.toUpperCase(),
      crypto: request.crypto,
      method: request.method,
      ...amount,
    });
    if (targets.length >= MAX_PRIMED) break;
  }
  return targets;
}

/** Writes the busiest combinations (replacing the file whole, so a crash never leaves half of one). */
export async function recordPopularity(file: string, targets: PrimeTarget[]): Promise<void> {
  if (!targets.length) return;
  const combinations = targets.map(({ side: _side, ...question }) => question);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(`${file}.tmp`, JSON.stringify({ combinations }));
  await rename(`${file}.tmp`, file);
}

/** What the last run recorded ([] when nothing was, or the file is unreadable). */
export async function recordedTargets(file: string): Promise<PrimeTarget[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return [];
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  const parsed = recordedSchema.safeParse(json);
  return parsed.success ? parsed.data.combinations.map((question) => ({ side: 'buy', ...question })) : [];
}

/** Each country's catalog defaults (DEFAULT_COUNTRY first), as many as `wanted`, at an amount inside the limits. */
export async function catalogTargets(
  deps: {
    ramp: Pick<RampClient, 'supported' | 'paymentMethods' | 'payoutMethods'>;
    fx: Pick<FxRates, 'fx'>;
    markup: number;
    defaultCountry: string;
  },
  wanted: number,
): Promise<PrimeTarget[]> {
  if (wanted <= 0) return [];
  const supported = await deps.ramp.supported();
  const countries = [
    deps.defaultCountry,
    ...supported.supported_countries.map((entry) => entry.iso.toUpperCase()),
  ].filter((code, index, all) => all.indexOf(code) === index);
  const targets: PrimeTarget[] = [];
  for (const country of countries) {
    if (targets.length >= wanted) break;
    const [payment, payout] = await Promise.all([
      deps.ramp.paymentMethods(country),
      deps.ramp.payoutMethods(country),
    ]);
    const catalog = assembleCatalog(country, [supported, payment, payout], {
      fx: deps.fx.fx,
      markup: deps.markup,
    });
    const { fiat, crypto, paymentMethod } = catalog.defaults;
    const method = catalog.paymentMethods.find((entry) => entry.id === paymentMethod);
    const terms = method?.terms.find((entry) => entry.currency === fiat);
    if (!method || !paymentMethod || !terms) continue;
    const min = terms.min === null ? 0 : Number(terms.min);
    const max = terms.max === null ? Number.POSITIVE_INFINITY : Number(terms.max);
    const amount = Math.min(Math.max(FIRST_AMOUNT, Math.ceil(min * 2)), max);
    if (!(amount >= min && amount > 0)) continue;
    targets.push({ side: 'buy', country, fiat, crypto, method: paymentMethod, fiatAmount: String(amount) });
  }
  return targets;
}
