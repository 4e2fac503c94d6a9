/**
 * A country's methods from the ramp's method lists, which come keyed by country, flat (each entry naming its
 * countries, or none) or as one bare method (docs/upstream.md#payment-methods). Each country gets exactly the
 * methods the list gives it: a list that does not say where its methods are offered is asked for per country.
 * Where the upstream ignores that filter (it answers a country no list has), the payment methods taking the
 * country's fiat are offered, each confirmed by pricing there (region-checks.ts); a payout list is refused. Pure,
 * plus per-list memos: the same list gives the same arrays, so callers (the catalog route) may memoise on their
 * identity until the list is refreshed.
 */
import { AppError } from '../errors.ts';
import type { MethodsByCountry, RampMethod } from '../schemas/upstream-ramp.ts';

export const uniqueBySlug = (byCountry: MethodsByCountry): RampMethod[] => {
  const seen = new Map<string, RampMethod>();
  for (const list of Object.values(byCountry)) for (const method of list) seen.set(method.slug, method);
  return [...seen.values()];
};

/** Whether the list says where each of its methods is offered (keyed by country, or every entry naming its countries). */
const knowsCountries = (byCountry: MethodsByCountry) => !byCountry['*']?.length;

/** The slugs of a list, as one comparable string. */
const slugsOf = (byCountry: MethodsByCountry) =>
  uniqueBySlug(byCountry)
    .map((method) => method.slug)
    .sort()
    .join(' ');

/** Whether two lists hold the same methods. */
export const sameMethods = (a: MethodsByCountry, b: MethodsByCountry) => slugsOf(a) === slugsOf(b);

/**
 * A code no country has (ISO 3166 leaves ZZ unassigned): a list asked for it that is not empty ignored the
 * country filter.
 */
export const NO_COUNTRY = 'ZZ';

/**
 * The methods of one country: its own list. An answer to a request for that country whose filter was honoured
 * (`filtered`) also gives it the methods that name no country; any other list says nothing of where they are
 * offered: refused here (the ramp client offers payment methods by currency instead: region-checks.ts).
 */
const ofCountry = (
  byCountry: MethodsByCountry,
  country: string | undefined,
  filtered: boolean,
): RampMethod[] => {
  if (!country) return uniqueBySlug(byCountry);
  const own = byCountry[country.toUpperCase()] ?? [];
  const unnamed = byCountry['*'] ?? [];
  if (!unnamed.length) return own;
  if (!filtered)
    throw new AppError(
      'UPSTREAM_ERROR',
      `The ramp service's method list does not say which methods ${country.toUpperCase()} has.`,
    );
  const slugs = new Set(own.map((method) => method.slug));
  return [...own, ...unnamed.filter((method) => !slugs.has(method.slug))];
};

/** Reads of method lists, memoised per list. */
export function createCountryMethods() {
  // Asked on every catalog and quote request: answered once per upstream list.
  const countryKeyed = new WeakMap<MethodsByCountry, boolean>();
  // One derived list per upstream list and country; a refresh brings a new upstream object, so new lists.
  const derived = new WeakMap<MethodsByCountry, Map<string, readonly RampMethod[]>>();
  return {
    /** Whether `byCountry` tells which methods a country has (else ask the upstream per country). */
    keyedByCountry(byCountry: MethodsByCountry): boolean {
      let known = countryKeyed.get(byCountry);
      if (known === undefined) {
        known = knowsCountries(byCountry);
        countryKeyed.set(byCountry, known);
      }
      return known;
    },

    /**
     * The methods of `country` in `byCountry` (all, deduplicated, without one): the same array per list.
     * `filtered`: `byCountry` answered a request for that country, and the upstream honours that filter.
     */
    of(byCountry: MethodsByCountry, country: string | undefined, filtered = false): readonly RampMethod[] {
      let byCode = derived.get(byCountry);
      if (!byCode) {
        byCode = new Map();
        derived.set(byCountry, byCode);
      }
      const code = country?.toUpperCase() ?? '';
      let methods = byCode.get(code);
      if (!methods) {
        methods = ofCountry(byCountry, country, filtered);
        byCode.set(code, methods);
      }
      return methods;
    },
  };
}
