/** Which country a shopper is in, as far as the request tells (when the widget does not say). */
import type { Context } from 'hono';

const isCountry = (value: string | undefined): value is string => !!value && /^[A-Za-z]{2}$/.test(value);

/**
 * The shopper's country from request headers: CDN geolocation first (`cf-ipcountry`, `x-vercel-ip-country`,
 * `x-country`), then the region of the first `accept-language` tag that has one. Cloudflare's `XX`/`T1`
 * (unknown, Tor) are not countries.
 */
export function countryFromHeaders(c: Context): string | undefined {
  for (const name of ['cf-ipcountry', 'x-vercel-ip-country', 'x-country']) {
    const value = c.req.header(name)?.trim().toUpperCase();
    if (isCountry(value) && value !== 'XX' && value !== 'T1') return value;
  }
  for (const tag of (c.req.header('accept-language') ?? '').split(',')) {
    const region = /^[a-z]{2,3}[-_]([a-z]{2})\b/i.exec(tag.trim().split(';')[0] ?? '')?.[1];
    if (region) return region.toUpperCase();
  }
  return undefined;
}
