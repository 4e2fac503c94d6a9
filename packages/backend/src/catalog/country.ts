/** Which country a shopper is in, as far as the request tells (when the widget does not say). */
import type { Context } from 'hono';

const isCountry = (value: string | undefined): value is string => !!value && /^[A-Za-z]{2}$/.test(value);

/**
 * The shopper's country from request headers: CDN geolocation first (`cf-ipcountry`, `x-vercel-ip-country`,
 * `x-country`), then the region of the first `accept-language` tag that has one (`pt-Latn-BR` → BR, `zh-Hant-TW` → TW; `en_US`, as
 * some clients write it, → US). Cloudflare's `XX`/`T1` (unknown, Tor) are not countries, nor is a UN region
 * (`es-419`); what is not a language tag at all (`C`, which WebKitGTK sends under `LANG=C.UTF-8`, `*`) says
 * nothing, so the caller's default applies rather than a guess.
 */
export function countryFromHeaders(c: Context): string | undefined {
  for (const name of ['cf-ipcountry', 'x-vercel-ip-country', 'x-country']) {
    const value = c.req.header(name)?.trim().toUpperCase();
    if (isCountry(value) && value !== 'XX' && value !== 'T1') return value;
  }
  for (const range of (c.req.header('accept-language') ?? '').split(',')) {
    const region = regionOf(range.split(';')[0]?.trim().replaceAll('_', '-') ?? '');
    if (isCountry(region)) return region;
  }
  return undefined;
}

function regionOf(tag: string): string | undefined {
  try {
    return new Intl.Locale(tag).region;
  } catch {
    return undefined;
  }
}
