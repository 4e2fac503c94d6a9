/**
 * Signed widget URLs (docs/upstream.md#url-signing): `signature` = base64 HMAC-SHA256(secret, "?" + query),
 * appended last. Verification runs over the raw query substring as received, never over re-encoded
 * parameters.
 */
import { hmacBase64, merchantOf, rampSecretFor, safeEqual } from '../../keys.ts';

export type VerifiedWidgetUrl =
  | { ok: true; merchantId: string; params: URLSearchParams }
  | { ok: false; message: string };

/** What a merchant's backend computes: `search` is the query with its leading "?", up to the signature. */
export const widgetSignature = (secret: string, search: string) => hmacBase64(secret, search);

export function verifyWidgetUrl(rawUrl: string): VerifiedWidgetUrl {
  const start = rawUrl.indexOf('?');
  const query = start < 0 ? '' : rawUrl.slice(start + 1).split('#')[0]!;
  const marker = query.lastIndexOf('&signature=');
  const signed = `?${marker < 0 ? query : query.slice(0, marker)}`;
  const params = new URLSearchParams(signed);
  const merchantId = merchantOf('rampPublic', params.get('apiKey'));
  if (!params.get('apiKey')) return { ok: false, message: 'Missing apiKey' };
  if (!merchantId) return { ok: false, message: 'Invalid apiKey' };
  if (marker < 0) return { ok: false, message: 'Missing signature' };
  const rawSignature = query.slice(marker + '&signature='.length);
  if (rawSignature.includes('&')) return { ok: false, message: 'The signature must be the final parameter' };
  let signature: string;
  try {
    signature = decodeURIComponent(rawSignature);
  } catch {
    return { ok: false, message: 'Invalid signature' };
  }
  const expected = widgetSignature(rampSecretFor(merchantId), signed);
  return safeEqual(signature, expected)
    ? { ok: true, merchantId, params }
    : { ok: false, message: 'Invalid signature' };
}
