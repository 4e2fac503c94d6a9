/**
 * A country's methods from the ramp's method lists, which come keyed by country or flat (each entry naming its
 * countries, or none). Pure, plus per-list memos: the same list gives the same arrays, so callers (the catalog
 * route) may memoise on their identity until the list is refreshed.
 */
import type { MethodsByCountry, RampMethod } from '../schemas/upstream-ramp.ts';

export const uniqueBySlug = (byCountry: MethodsByCountry): RampMethod[] => {
  const seen = new Map<string, RampMethod>();
  for (const list of Object.values(byCountry)) for (const method of list) seen.set(method.slug, method);
  return [...seen.values()];
};

/** Whether the list says where methods are offered (keyed by country, or flat entries naming countries). */
const knowsCountries = (byCountry: MethodsByCountry) => Object.keys(byCountry).some((key) => key !== '*');

/**
 * The methods of one country: its own list, plus the methods a flat list gave without saying where that take the
 * country's currency (what a method carries: docs/upstream.md#payment-methods). A list that ignored our
 * `country` filter thus offers Germany no PIX or BLIK.
 */
const ofCountry = (
  byCountry: MethodsByCountry,
  country: string | undefined,
  currency: string | undefined,
): RampMethod[] =>
  country
    ? [
        ...(byCountry[country.toUpperCase()] ?? []),
        ...(byCountry['*'] ?? []).filter(
          (method) => !currency || method.currencies.length === 0 || method.currencies.includes(currency),
        ),
      ]
    : uniqueBySlug(byCountry);

/** Reads of method lists, memoised per list; `currencyOf` gives a country's currency (from `get_supported`). */
export function createCountryMethods(currencyOf: (country: string) => Promise<string | undefined>) {
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

    /** The methods of `country` in `byCountry` (all, deduplicated, without one): the same array per list. */
    async of(byCountry: MethodsByCountry, country: string | undefined): Promise<readonly RampMethod[]> {
      let byCode = derived.get(byCountry);
      if (!byCode) {
        byCode = new Map();
        derived.set(byCountry, byCode);
      }
      const code = country?.toUpperCase() ?? '';
      let methods = byCode.get(code);
      if (!methods) {
        methods = ofCountry(byCountry, country, country ? await currencyOf(code) : undefined);
        byCode.set(code, methods);
      }
      return methods;
    },
  };
}
