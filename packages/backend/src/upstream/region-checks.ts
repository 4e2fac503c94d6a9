/**
 * Payment methods offered where the ramp's method list does not say which a country has (a flat list without
 * countries, or one bare method, and an upstream that ignores the country filter: docs/upstream.md#payment-methods).
 * The country is offered the methods whose currencies take its fiat; each is confirmed by its first pricing call in
 * that region (the upstream requires `region` and refuses a method not available there): an answer keeps it, a
 * refusal of the region drops it from that country's methods. Both are said in the log.
 */
import { AppError } from '../errors.ts';
import type { LogLine } from '../logger.ts';
import type { MethodsByCountry, RampMethod } from '../schemas/upstream-ramp.ts';
import { refusalKind, UpstreamRefusal } from './http.ts';
import { uniqueBySlug } from './ramp-methods.ts';

/**
 * An upstream refusal that names the region or the method (`Unsupported region`), not an amount. The same words
 * may refuse a crypto not sold in that region: `priced` asks once more with another crypto before dropping.
 */
export const refusesRegion = (error: unknown): error is UpstreamRefusal =>
  error instanceof UpstreamRefusal &&
  error.upstreamStatus >= 400 &&
  error.upstreamStatus < 500 &&
  refusalKind(error.upstreamMessage) === 'other' &&
  /region|country|method|not available|unavailable/i.test(error.upstreamMessage);

/** The methods of a list whose currencies take `fiat`, each once. */
export const takingFiat = (byCountry: MethodsByCountry, fiat: string): RampMethod[] =>
  uniqueBySlug(byCountry).filter((method) => method.currencies.includes(fiat));

export function createRegionChecks(log: LogLine) {
  /** `DE creditcard`: offered in that region by its currency, not priced there yet. */
  const pending = new Set<string>();
  /** The payment groups each region's pricing refused. */
  const refused = new Map<string, Set<string>>();
  /** Per list and region: the methods offered, for the refusals counted then (the same array until one more). */
  const offered = new WeakMap<MethodsByCountry, Map<string, { refusals: number; methods: RampMethod[] }>>();
  /** The regions whose offer was said in the log (once each, not at every refresh of the list). */
  const announced = new Set<string>();
  const key = (region: string, group: string) => `${region.toUpperCase()} ${group}`;

  const drop = (region: string, group: string, message: string) => {
    pending.delete(key(region, group));
    const groups = refused.get(region) ?? new Set<string>();
    if (groups.has(group)) return;
    groups.add(group);
    refused.set(region, groups);
    log(
      `[ramp] ${group} dropped from ${region}'s methods: its first pricing call there was refused ("${message}")`,
    );
  };

  return {
    /**
     * `region`'s methods from a list that does not say which it has: those taking `fiat`, less the groups its
     * pricing refused there. The same array until a group is refused there, or the list is refreshed.
     */
    offer(byCountry: MethodsByCountry, region: string, fiat: string): readonly RampMethod[] {
      const code = region.toUpperCase();
      let byRegion = offered.get(byCountry);
      if (!byRegion) {
        byRegion = new Map();
        offered.set(byCountry, byRegion);
      }
      const dropped = refused.get(code) ?? new Set<string>();
      const kept = byRegion.get(code);
      if (kept && kept.refusals === dropped.size) return kept.methods;
      const methods = takingFiat(byCountry, fiat).filter((method) => !dropped.has(method.group));
      if (!kept) {
        for (const method of methods) pending.add(key(code, method.group));
        const groups = [...new Set(methods.map((method) => method.group))];
        if (!announced.has(code))
          log(
            `[ramp] the method list does not say which methods ${code} has: offering the ${groups.length} taking ${fiat} (${groups.join(', ') || 'none'}), each confirmed by its first pricing call in ${code}`,
          );
        announced.add(code);
      }
      byRegion.set(code, { refusals: dropped.size, methods });
      return methods;
    },

    /**
     * A buy pricing call for `group` in `region`. The first one there of a method offered by its currency
     * confirms it or, refused for the region (and again with `another` crypto), drops it: METHOD_UNAVAILABLE.
     */
    async priced<Q>(
      region: string,
      group: string,
      call: () => Promise<Q>,
      another: () => Promise<unknown>,
    ): Promise<Q> {
      const code = region.toUpperCase();
      if (!pending.has(key(code, group))) return call();
      try {
        const quote = await call();
        pending.delete(key(code, group));
        return quote;
      } catch (error) {
        if (!refusesRegion(error)) throw error;
        const alsoRefused = await another().then(
          () => false,
          (again: unknown) => refusesRegion(again),
        );
        if (!alsoRefused) {
          // The method is priced there: it was the crypto that the region refused.
          pending.delete(key(code, group));
          throw error;
        }
        drop(code, group, error.upstreamMessage);
        throw new AppError('METHOD_UNAVAILABLE', 'This payment method is not offered in this country.');
      }
    },
  };
}
