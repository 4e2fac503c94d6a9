/**
 * TRUSTED_PROXIES: the proxies whose `X-Forwarded-For` is believed (middleware/client-address.ts), as addresses,
 * CIDR ranges and range names, checked and compiled by proxy-addr (Express's). Apart from the middleware so the
 * config can check the setting without importing the app.
 */
import proxyAddr from 'proxy-addr';

/** Range names, beside addresses and CIDR ranges: proxy-addr's, and `private` for its `uniquelocal`. */
const rangeNames: Record<string, string> = {
  loopback: 'loopback',
  private: 'uniquelocal',
  uniquelocal: 'uniquelocal',
  linklocal: 'linklocal',
};

/** The entries of a comma-separated TRUSTED_PROXIES, blanks dropped. */
export const splitTrustedProxies = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

/** Each entry that is neither an address, a CIDR range nor a range name (`loopback`, `private`, `linklocal`). */
export function badTrustedProxies(entries: readonly string[]): string[] {
  return entries.filter((entry) => {
    if (rangeNames[entry.toLowerCase()]) return false;
    try {
      proxyAddr.compile(entry);
      return false;
    } catch {
      return true;
    }
  });
}

/** Whether an address is one of `entries`' (undefined when there is none: nobody is trusted). */
export function trustOf(entries: readonly string[]): ((address: string, hop: number) => boolean) | undefined {
  if (!entries.length) return undefined;
  return proxyAddr.compile(entries.map((entry) => rangeNames[entry.toLowerCase()] ?? entry));
}

/** Node's dual-stack sockets name an IPv4 client `::ffff:192.0.2.1`: one client, one spelling (`192.0.2.1`). */
export const plainAddress = (address: string) => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
