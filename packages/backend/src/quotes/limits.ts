/**
 * A method's limits on a quote. They are EUR on the amount the upstream prices (buy: before fees; sell: the
 * crypto's value), turned into totals in the shopper's fiat (quotes/totals.ts) and checked before any upstream
 * call, with the EUR value of the fiat from quotes/fx.ts: exact for EUR and for a fiat the ramp's own quotes
 * revealed, else rough (from the catalog's fee tables) and checked with a tolerance, so a rough rate never
 * refuses a valid amount. With no rate at all the upstream checks the limits and its refusal is mapped to the
 * same codes: AMOUNT_TOO_LOW / AMOUNT_TOO_HIGH with the limits in `details`.
 */
import { AppError } from '../errors.ts';
import { amountString, decimal } from '../money.ts';
import type { RampMethod } from '../schemas/upstream-ramp.ts';
import { refusalKind, UpstreamRefusal } from '../upstream/http.ts';
import { OutsideLimits } from './fee-model/derive.ts';
import type { FxRate } from './fx.ts';
import { totalLimits } from './totals.ts';

/** A rough FX rate (from fee tables) refuses only amounts this far outside the limits. */
const ROUGH_FX_TOLERANCE = 0.05;

type Side = 'buy' | 'sell';

export type LimitDetails = {
  min: string | null;
  max: string | null;
  currency: string;
  minEur: string | null;
  maxEur: string | null;
};

/**
 * The method's limits: in EUR on the amount the upstream prices (`minEur`, `maxEur`), and as totals the shopper
 * may type in their fiat when a rate is known (`min`, `max`; quotes/totals.ts), else the EUR ones.
 */
export function limitDetails(
  side: Side,
  method: RampMethod,
  fiat: string,
  eurPerUnit: number | undefined,
  markup: number,
): LimitDetails {
  const eur = (limit: number | null) => (limit === null ? null : amountString(limit, 'EUR'));
  if (eurPerUnit === undefined)
    return {
      min: eur(method.minEur),
      max: eur(method.maxEur),
      currency: 'EUR',
      minEur: eur(method.minEur),
      maxEur: eur(method.maxEur),
    };
  const totals = totalLimits(side, method, fiat, decimal(eurPerUnit), markup);
  return {
    min: totals.min && amountString(totals.min, fiat, { mode: 'up' }),
    max: totals.max && amountString(totals.max, fiat, { mode: 'down' }),
    currency: fiat,
    minEur: eur(method.minEur),
    maxEur: eur(method.maxEur),
  };
}

/** AMOUNT_TOO_LOW / AMOUNT_TOO_HIGH with the limits in `details`. */
export function outOfLimits(side: 'low' | 'high', details: LimitDetails): AppError {
  const [code, bound, limit] =
    side === 'low'
      ? (['AMOUNT_TOO_LOW', 'below', 'minimum'] as const)
      : (['AMOUNT_TOO_HIGH', 'above', 'maximum'] as const);
  const value = side === 'low' ? details.min : details.max;
  return new AppError(code, `The amount is ${bound} the method's ${limit} of ${value} ${details.currency}.`, {
    details,
  });
}

/** The limit checks of one backend: the rates it knows (`fx`) and its markup (part of every total). */
export function createLimits(fx: (fiat: string) => FxRate | undefined, markup: number) {
  const details = (side: Side, method: RampMethod, fiat: string) =>
    limitDetails(side, method, fiat, fx(fiat)?.eurPerUnit, markup);
  const tooLow = (side: Side, method: RampMethod, fiat: string) =>
    outOfLimits('low', details(side, method, fiat));
  const tooHigh = (side: Side, method: RampMethod, fiat: string) =>
    outOfLimits('high', details(side, method, fiat));

  return {
    tooLow,

    /** Refuses a total outside the method's limits, when a rate tells us. */
    check(side: Side, method: RampMethod, fiat: string, amount: string): void {
      const rate = fx(fiat);
      if (!rate) return;
      const limits = totalLimits(side, method, fiat, decimal(rate.eurPerUnit), markup);
      const value = decimal(amount);
      const slack = rate.exact ? 0 : ROUGH_FX_TOLERANCE;
      // The details (limits in the shopper's fiat) only for a refusal: most amounts pass.
      if (limits.min && value.lt(limits.min.times(1 - slack))) throw tooLow(side, method, fiat);
      if (limits.max && value.gt(limits.max.times(1 + slack))) throw tooHigh(side, method, fiat);
    },

    /** An upstream refusal to price: its limits → our limit codes, anything else → QUOTE_UNAVAILABLE. */
    refusal(error: unknown, side: Side, method: RampMethod, fiat: string): never {
      if (error instanceof OutsideLimits) {
        throw error.side === 'low' ? tooLow(side, method, fiat) : tooHigh(side, method, fiat);
      }
      if (error instanceof UpstreamRefusal && error.upstreamStatus < 500) {
        const kind = refusalKind(error.upstreamMessage);
        if (kind === 'amount_too_low') throw tooLow(side, method, fiat);
        if (kind === 'amount_too_high') throw tooHigh(side, method, fiat);
        throw new AppError(
          'QUOTE_UNAVAILABLE',
          'This quote is not available right now; try another amount or method.',
        );
      }
      throw error;
    },
  };
}

export type Limits = ReturnType<typeof createLimits>;
