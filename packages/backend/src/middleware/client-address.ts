/**
 * Who sent a request. The connection's peer, unless that peer is a proxy named in TRUSTED_PROXIES: then the
 * client that proxy names in `X-Forwarded-For`, the header read from the right past every trusted hop (proxy-addr,
 * as Express does), so a client's own header is believed no further than the first hop not trusted. Resolved once
 * per request as the `clientAddress` variable: the per-client limit, the wrong-credential count and the audit log
 * read it.
 *
 * `X-Forwarded-For` only, not `Forwarded` too: every common proxy writes the former (HAProxy's `option
 * forwardfor`, nginx, Caddy, cloud load balancers), and reading both would let a client fill in the one its proxy
 * leaves alone.
 */
import { isIP } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import proxyAddr from 'proxy-addr';
import type { AppEnv } from '../deps.ts';
import { logger } from '../logger.ts';
import { plainAddress as plain, trustOf } from '../trusted-proxies.ts';

/** The key of a request whose peer nobody named (`app.request()`, a fetch handler that handed in nothing). */
export const unknownClient = 'unknown';

/**
 * The peer as the host handed it in: Node's bindings (`@hono/node-server`: the socket), or a fetch handler's
 * `{ clientAddress }` (Bun's `server.requestIP(request)`, Deno's `info.remoteAddr`; packages/backend/README.md).
 */
export function peerAddress(env: unknown): string | undefined {
  const given = env as
    | { clientAddress?: unknown; incoming?: { socket?: { remoteAddress?: string } }; server?: unknown }
    | undefined;
  if (typeof given?.clientAddress === 'string')
    return isIP(given.clientAddress) ? plain(given.clientAddress) : undefined;
  const bindings = (given?.server ?? given) as
    | { incoming?: { socket?: { remoteAddress?: string } } }
    | undefined;
  const remote = bindings?.incoming?.socket?.remoteAddress;
  return remote ? plain(remote) : undefined;
}

/** The client: the peer, or the first untrusted hop of `forwardedFor` from the right when the peer is trusted. */
export function clientOf(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trust: ((address: string, hop: number) => boolean) | undefined,
): string {
  if (!peer) return unknownClient;
  if (!trust || !forwardedFor) return peer;
  return plain(
    proxyAddr(
      { headers: { 'x-forwarded-for': forwardedFor }, socket: { remoteAddress: peer } } as never,
      trust,
    ),
  );
}

/** The request's client address (set by `resolveClientAddress`). */
export const clientAddress = (c: Context<AppEnv>): string => c.get('clientAddress') ?? unknownClient;

const loopbackOrPrivate = (address: string) =>
  /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::1$|f[cd][0-9a-f]{2}:)/i.test(address);

/** API requests counted before saying that every one came from the same address. */
export const alikeAfter = 50;

export interface ClientAddressOptions {
  /** TRUSTED_PROXIES as read by the config (empty: nobody's header is believed). */
  trustedProxies: readonly string[];
  /** Whether to say so when every request looks alike (live mode: the sandbox runs on a developer's machine). */
  warnWhenAlike: boolean;
}

/**
 * Sets `clientAddress` on each request. In live mode, says once when the requests cannot be told apart: none came
 * with an address (a fetch handler handing in nothing), or the first `alikeAfter` API requests all came from one
 * loopback or private address with no proxy trusted (a proxy in front that the backend was not told about).
 */
export function resolveClientAddress(options: ClientAddressOptions): MiddlewareHandler<AppEnv> {
  const trust = trustOf(options.trustedProxies);
  let watching = options.warnWhenAlike;
  let first: string | undefined;
  let seen = 0;
  const watch = (client: string) => {
    if (client === unknownClient) {
      watching = false;
      logger.warn(
        '[client] a request came with no client address, so every such request counts as one client (one rate limit, one wrong-credential count): a fetch handler should hand the address in, checkout.fetch(request, { clientAddress }) (packages/backend/README.md, "Who sent the request").',
      );
      return;
    }
    first ??= client;
    // With a proxy trusted, its clients are told apart already (or its header says they are one).
    if (client !== first || trust) {
      watching = false;
      return;
    }
    seen += 1;
    if (seen < alikeAfter) return;
    watching = false;
    if (loopbackOrPrivate(client))
      logger.warn(
        `[client] every one of the first ${alikeAfter} API requests came from ${client}: behind a proxy or load balancer, set TRUSTED_PROXIES to its address (README "Behind a proxy"), or every shopper counts as one client (one rate limit, one wrong-credential count) and the audit log names the proxy.`,
      );
  };
  return (c, next) => {
    const forwardedFor = trust ? c.req.header('x-forwarded-for') : undefined;
    const client = clientOf(peerAddress(c.env), forwardedFor, trust);
    c.set('clientAddress', client);
    // Shoppers' requests only: a load balancer's health checks come from its own address whatever it forwards.
    if (watching && c.get('path').startsWith('/api/')) watch(client);
    return next();
  };
}
