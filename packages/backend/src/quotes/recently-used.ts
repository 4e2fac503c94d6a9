/**
 * A Map kept in order of use, bounded: what the quote engine and the quote route keep of the answers they gave
 * (the amounts asked most stay; one typed once is the first to go).
 */

/** `key`'s value, made the most recently used; undefined when it is not kept. */
export function recall<K, V>(kept: Map<K, V>, key: K): V | undefined {
  if (!kept.has(key)) return undefined;
  const value = kept.get(key) as V;
  kept.delete(key);
  kept.set(key, value);
  return value;
}

/**
 * Keeps `value` as the most recently used, dropping the least recently used when `kept` holds `max` others. A key
 * kept already is replaced, and moves to the most recent.
 */
export function keep<K, V>(kept: Map<K, V>, key: K, value: V, max: number): void {
  kept.delete(key);
  if (kept.size >= max) kept.delete(kept.keys().next().value as K);
  kept.set(key, value);
}
