/** What an operator hears at start about a configuration that runs but is likely wrong. */
import type { Config } from './config-type.ts';

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * What an operator should hear at start about a configuration that runs but is likely wrong: live keys with an
 * `http:` PUBLIC_URL, or a PUBLIC_URL on this machine that is not where the backend listens (`port`), so every
 * payment link and return page would point at nothing.
 */
export function startWarnings(config: Config, port: number): string[] {
  const warnings: string[] = [];
  const publicUrl = new URL(config.publicUrl);
  if (config.mode === 'live' && publicUrl.protocol === 'http:')
    warnings.push(
      `PUBLIC_URL ${config.publicUrl} is http: with live keys set: shoppers' return pages and the upstream's ` +
        'webhooks would travel unencrypted. Serve it over HTTPS (behind a TLS proxy) and set PUBLIC_URL to the https:// address.',
    );
  if (loopbackHosts.has(publicUrl.hostname)) {
    const publicPort = Number(publicUrl.port || (publicUrl.protocol === 'https:' ? 443 : 80));
    if (publicPort !== port)
      warnings.push(
        `PUBLIC_URL ${config.publicUrl} is on this machine at port ${publicPort}, but the backend listens on ` +
          `${port}: payment links and return pages would point at nothing. Set PUBLIC_URL to the address shoppers use.`,
      );
    else if (publicUrl.pathname !== '/')
      warnings.push(
        `PUBLIC_URL ${config.publicUrl} has a path, but this command serves at the root of port ${port}: ` +
          'payment links and return pages would point at nothing. Drop the path, or mount createCheckout() under it.',
      );
  }
  return warnings;
}

/** The backend's own origin at `port` under each local name: `localhost`, `127.0.0.1` and `[::1]`. */
export const loopbackOrigins = (port: number) =>
  ['localhost', '127.0.0.1', '[::1]'].map((host) => `http://${host}:${port}`);
