/**
 * The refresher: re-prices references about to age out, busiest first, with at most `refreshShare` of the
 * budget and only while the budget has room (`hasRoom`: the last calls are left to shoppers' first quotes).
 */
import type { Reference } from '../fee-model/derive.ts';
import type { References } from './references.ts';
import type { AnyQuote, QuoteEngineOptions } from './types.ts';

/** Calls left to shoppers' first quotes: the refresher and sampler never take the budget's last ones. */
const HEADROOM = 0.2;

export const roomIn =
  (budget: QuoteEngineOptions['budget']) =>
  (share: number): boolean => {
    const { inWindow, queued } = budget.stats();
    return queued === 0 && inWindow < budget.perSecond * (1 - HEADROOM) && share > 0;
  };

export function createRefresher(
  references: References,
  options: Pick<QuoteEngineOptions, 'budget' | 'clock' | 'settings'>,
): () => Promise<number> {
  const { budget, clock, settings } = options;
  const { combos, flights, totals, priceUpstream } = references;
  const hasRoom = roomIn(budget);
  /** When the refresher's recent calls were made (its share of the budget is counted over one second). */
  let refreshTimes: number[] = [];

  async function refresh(): Promise<number> {
    const now = clock.now();
    refreshTimes = refreshTimes.filter((at) => now - at < 1000);
    const allowed = Math.floor(budget.perSecond * settings.refreshShare) - refreshTimes.length;
    if (allowed <= 0 || !hasRoom(settings.refreshShare)) return 0;
    // Ageing references someone asked for since their last refresh, busiest first.
    const due = [...combos.values()]
      .filter(
        (combo) =>
          combo.reference &&
          combo.demand > 0 &&
          !flights.has(combo.key) &&
          now - combo.pricedAt >= settings.freshMs / 2,
      )
      .sort((a, b) => b.demand - a.demand)
      .slice(0, allowed);
    await Promise.all(
      due.map((combo) => {
        refreshTimes.push(now);
        combo.demand = 0;
        const reference = combo.reference as Reference<AnyQuote>;
        const basis =
          combo.side === 'buy'
            ? reference.quote.fiat_amount_excl_fees_local
            : reference.quote.fiat_amount_incl_fees_local;
        const request = { ...combo.request, fiatAmount: String(basis), cryptoAmount: undefined };
        const flight = priceUpstream(combo, request).then(
          () => {
            totals.refreshes += 1;
          },
          () => undefined,
        );
        flights.set(combo.key, flight);
        return flight.finally(() => flights.delete(combo.key));
      }),
    );
    return due.length;
  }
  return refresh;
}
