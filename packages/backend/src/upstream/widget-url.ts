/**
 * Signing the ramp widget's URL (docs/upstream.md#url-signing): base64 HMAC-SHA256 with the secret key over
 * `"?" + query` exactly as it appears in the URL (already percent-encoded), appended last as `&signature=`.
 * The secret key never leaves the server; the browser gets the signed URL.
 */
import { createHmac } from 'node:crypto';

export type WidgetSide = 'buy' | 'sell';

export type WidgetParams = Record<string, string | number | boolean | undefined>;

/** The widget URL for `side` with `params` in their order (`apiKey` first), empty ones left out, signed. */
export function signedWidgetUrl(
  widgetUrl: string,
  side: WidgetSide,
  params: WidgetParams,
  secretKey: string,
): string {
  const query = Object.entries(params)
    .filter(
      (entry): entry is [string, string | number | boolean] => entry[1] !== undefined && entry[1] !== '',
    )
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
  const signature = createHmac('sha256', secretKey).update(`?${query}`).digest('base64');
  const base = widgetUrl.replace(/\/+$/, '');
  return `${base}/${side === 'sell' ? 'sell' : ''}?${query}&signature=${encodeURIComponent(signature)}`;
}
