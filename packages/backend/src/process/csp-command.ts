/** `crypto-checkout-backend csp`: the storefront's headers (storefront-csp.ts), printed as they are to be sent. */
import type { Config } from '../config.ts';
import { storefrontCsp } from '../csp/storefront-csp.ts';

/** Prints both headers (one `Name: value` line each) and returns the exit code: 1 for an origin that is not one. */
export function printStorefrontCsp(
  config: Config,
  payPageOrigins: readonly string[],
  write: (text: string) => void,
  refuse: (message: string) => void,
): number {
  for (const origin of payPageOrigins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin.replace(/\/$/, '')) {
      refuse(`--pay-page-origin "${origin}" is not an origin (https://pay.example, no path).`);
      return 1;
    }
  }
  const { headers } = storefrontCsp(config, {
    payPageOrigins: payPageOrigins.map((origin) => origin.replace(/\/$/, '')),
  });
  for (const [name, value] of Object.entries(headers)) write(`${name}: ${value}\n`);
  return 0;
}
