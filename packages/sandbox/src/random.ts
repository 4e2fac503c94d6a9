/**
 * Seeded randomness: the same seed gives the same draws on every run and every machine (sha256 in counter mode),
 * so what looks random in the sandbox (a fault's `probability`, permanent route addresses) is repeatable.
 */
import { createHash } from 'node:crypto';

/** As many pseudo-random bytes as needed from a seed. */
export function bytesFrom(seed: string, count: number): Uint8Array {
  const out = new Uint8Array(count);
  for (let block = 0, filled = 0; filled < count; block++) {
    const digest = createHash('sha256').update(`${seed}#${block}`).digest();
    for (const byte of digest) {
      if (filled === count) break;
      out[filled++] = byte;
    }
  }
  return out;
}

/** The `n`-th draw of a seed, a number in [0, 1). */
export function drawFrom(seed: string, n: number): number {
  const [a = 0, b = 0, c = 0, d = 0] = bytesFrom(`draw:${seed}:${n}`, 4);
  return (((a << 24) | (b << 16) | (c << 8) | d) >>> 0) / 2 ** 32;
}
