/** Return URLs from the browser are only followed when they lead back to one of the shop's allowed origins. */

/** Whether `url` is an http(s) URL on one of `origins` (exact origin match: scheme, host and port). */
export function isAllowedUrl(url: string, origins: readonly string[]): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && origins.includes(parsed.origin);
  } catch {
    return false;
  }
}
