/** A stable identifier: the same seed gives the same UUID (ids.ts hands it on; currencies.ts uses it). */
import { createHash } from 'node:crypto';

const HEX = '0123456789abcdef';

/** A UUID (v4 layout) that is always the same for the same seed, e.g. a merchant's id from its sandbox key. */
export function stableUuid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = HEX[8 + (Number.parseInt(hex[16] ?? '0', 16) % 4)];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
