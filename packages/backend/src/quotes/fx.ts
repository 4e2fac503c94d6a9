/**
 * What one unit of each fiat is worth in EUR, as far as the ramp has told: exact from its own priced quotes (the
 * EUR and local amounts of one figure, learned from every quote in that fiat: each figure is rounded to the cent,
 * so each says the rate lies in an interval; the rate is the shortest decimal all of them allow, and a figure
 * outside them means the rate moved: it starts again from that one), else rough from the first method
 * list's fee tables (a method's fixed fee listed per currency next to EUR). Method limits are EUR, so this is
 * what turns them into totals in the shopper's fiat (quotes/limits.ts, the catalog's terms). It observes the ramp
 * client: `priced` and `listed` are what the client reports (upstream/ramp-client.ts `RampReports`).
 */
import type { RampMethod } from '../schemas/upstream-ramp.ts';

/** EUR value of one unit of a fiat, and whether it came from a priced quote (exact) or a fee table (rough). */
export interface FxRate {
  eurPerUnit: number;
  exact: boolean;
}

/** A rate must move more than this (relative) to count as moved: every quote's figures are rounded to cents. */
const MOVE = 0.001;

/** One backend's rates (per ramp client, never module-wide). */
export function createFxRates() {
  const learned = new Map<string, number>();
  /** Per currency, the rates the figures seen since it last moved all allow. */
  const bounds = new Map<string, { low: number; high: number }>();
  let rough: Map<string, number> | undefined;
  let version = 0;
  /** Each currency's rate when `version` last went up for it. */
  const shown = new Map<string, number>();

  return {
    /** Learns `fiat`'s exact rate from the EUR and local amounts of one figure of a priced quote. */
    priced(fiat: string, eur: number | null | undefined, local: number | null | undefined): void {
      if (!(eur && local && eur > 0 && local > 0)) return;
      const code = fiat.toUpperCase();
      let seen = { low: (eur - 0.005) / local, high: (eur + 0.005) / local };
      const kept = bounds.get(code);
      if (kept && kept.low <= seen.high && seen.low <= kept.high)
        seen = { low: Math.max(kept.low, seen.low), high: Math.min(kept.high, seen.high) };
      bounds.set(code, seen);
      const rate = shortestWithin(seen.low, seen.high) ?? eur / local;
      learned.set(code, rate);
      const last = shown.get(code);
      if (last === undefined || Math.abs(rate - last) / last > MOVE) {
        shown.set(code, rate);
        version += 1;
      }
    },

    /** Learns rough rates from a method list's fee tables, once (the first list the ramp gave). */
    listed(methods: () => Iterable<RampMethod>): void {
      if (rough) return;
      rough = roughRates(methods());
      version += 1;
    },

    /** The EUR value of one unit of `fiat`, as far as the quotes and catalog seen so far tell. */
    fx(fiat: string): FxRate | undefined {
      const code = fiat.toUpperCase();
      if (code === 'EUR') return { eurPerUnit: 1, exact: true };
      const exact = learned.get(code);
      if (exact) return { eurPerUnit: exact, exact: true };
      const guess = rough?.get(code);
      return guess ? { eurPerUnit: guess, exact: false } : undefined;
    },

    /**
     * Goes up when what `fx` tells has moved enough to show: a currency's first rate, or one that has moved more
     * than MOVE since it last went up. What is built from the rates (the catalog's converted terms) is kept until then.
     */
    version: () => version,
  };
}

export type FxRates = ReturnType<typeof createFxRates>;

/** The decimal with the fewest digits within [low, high] (FX tables are written so), if one has up to 10. */
function shortestWithin(low: number, high: number): number | undefined {
  for (let digits = 1; digits <= 10; digits++) {
    const scale = 10 ** digits;
    const candidate = Math.ceil(low * scale - 1e-9) / scale;
    if (candidate <= high + 1e-12 && candidate > 0) return candidate;
  }
  return undefined;
}

/** EUR per unit of each currency, from methods whose fixed fee is listed per currency next to EUR. */
function roughRates(methods: Iterable<RampMethod>): Map<string, number> {
  const rates = new Map<string, number>();
  for (const method of methods) {
    const eur = method.fixedFeeByCurrency['EUR'] ?? method.fixedFeeEur;
    // Tiny fees rounded to cents say little about the rate.
    if (!eur || eur < 0.2) continue;
    for (const [code, local] of Object.entries(method.fixedFeeByCurrency)) {
      if (local > 0 && code !== 'EUR' && !rates.has(code)) rates.set(code, eur / local);
    }
  }
  return rates;
}
