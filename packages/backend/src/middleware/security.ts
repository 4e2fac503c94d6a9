/**
 * Browser-facing hardening: Hono's `cors` (allowlist) and `secureHeaders`, a refusal of foreign origins on
 * public routes, and the body limit. Webhooks and admin routes never get CORS: only servers call them.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { NONCE, secureHeaders } from 'hono/secure-headers';
import type { Config } from '../config.ts';
import { cspReportPath } from '../csp/storefront-csp.ts';
import type { AppEnv } from '../deps.ts';
import { AppError } from '../errors.ts';

/** Routes only servers call (the upstream, the merchant's back office). */
export const isServerOnly = (path: string) =>
  path.startsWith('/api/webhooks') || path.startsWith('/api/admin');

/** Pages designed to be framed by the merchant's shop: the order return page. */
const isFramedPage = (path: string) => /^\/api\/orders\/[^/]+\/return$/.test(path);

/** Static assets any page of an allowed shop may load without CORS (script tag, img tag). */
export const isStaticAsset = (path: string) =>
  path.startsWith('/widget/') || path.startsWith('/api/products/images/') || path.startsWith('/api/flags/');

const allowHeaders = ['Content-Type', 'Idempotency-Key', 'X-Status-Token', 'X-Request-Id'];

/** The origins a page may call the public routes from: ALLOWED_ORIGINS and the backend's own. */
const allowedOrigins = (config: Config) =>
  new Set([...config.allowedOrigins, new URL(config.publicUrl).origin]);

export function publicCors(config: Config): MiddlewareHandler<AppEnv> {
  const allowed = allowedOrigins(config);
  const handler = cors({
    origin: config.allowedOrigins,
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders,
    exposeHeaders: ['X-Request-Id', 'Retry-After', 'Idempotent-Replayed', 'RateLimit', 'RateLimit-Policy'],
    maxAge: 600,
  });
  // Hono's `cors` writes its headers to `c.res` before the handler runs; Hono then rebuilds the handler's answer
  // around its body, which turns the adapter's ready string into a web stream (a large share of the cached
  // catalog's CPU: `npm run bench -- profile`). So it runs where its headers cost nothing: preflights as they come (it answers them
  // itself), other requests from a page once the answer exists, with the context open for headers while it
  // adds them. A request without an Origin is no CORS request; every answer still varies by Origin for caches.
  return async (c, next) => {
    if (isServerOnly(c.get('path'))) return next();
    if (c.req.method === 'OPTIONS') {
      // A foreign origin's preflight is let through, only so that its request meets `originGuard`'s refusal,
      // which the page can read (a POST first, as deposit sends, would otherwise look like no connection). The
      // request itself is refused before any route runs, and nothing but the refusal is readable.
      const origin = c.req.header('origin');
      if (origin && !allowed.has(origin) && c.req.header('access-control-request-method'))
        return c.body(null, 204, {
          'Access-Control-Allow-Origin': origin,
          'Access-Control-Allow-Methods': 'GET, POST',
          'Access-Control-Allow-Headers': allowHeaders.join(', '),
          'Access-Control-Max-Age': '600',
          Vary: 'Origin',
        });
      return handler(c, next);
    }
    if (!c.req.header('origin')) {
      c.header('Vary', 'Origin', { append: true });
      return next();
    }
    await next();
    const finalized = c.finalized;
    c.finalized = false;
    try {
      await handler(c, async () => {});
    } finally {
      c.finalized = finalized;
    }
  };
}

/**
 * A browser request from a foreign origin to a public API route is refused (403 FORBIDDEN) rather than only
 * unreadable: CORS stops the page reading the answer, not the request creating an order. Requests without an
 * Origin header (servers, same-origin GETs, script tags) pass. The 403 is open to the page it refuses.
 */
export function originGuard(config: Config): MiddlewareHandler<AppEnv> {
  const allowed = allowedOrigins(config);
  return async (c, next) => {
    const origin = c.req.header('origin');
    const path = c.get('path');
    if (
      origin &&
      !allowed.has(origin) &&
      !isServerOnly(path) &&
      !isStaticAsset(path) &&
      // Browsers send CSP reports with an Origin of their own choosing (WebKit: none the shop's), and a report
      // from a page the checkout does not know is news too: bounded and rate-limited, never refused by origin.
      path !== cspReportPath &&
      c.req.method !== 'OPTIONS'
    ) {
      // The refusal itself is readable by the refused page (it holds nothing but that), so the element can tell
      // its developer to list the origin in ALLOWED_ORIGINS rather than read a blocked answer as "no connection".
      c.header('Access-Control-Allow-Origin', origin);
      c.header('Vary', 'Origin', { append: true });
      throw new AppError('FORBIDDEN', 'This origin is not allowed to use this checkout.');
    }
    await next();
  };
}

/** The merchant console's page (routes/console.ts); its assets are scripts, under the strict policy. */
const isConsolePage = (path: string) => path === '/console' || path === '/console/';

/** The refund claim page (routes/refund-claim.ts): a form that posts to itself, no script. */
const isClaimPage = (path: string) => /^\/refunds\/[^/]+$/.test(path);

/** Our HTML pages: the API reference and the order return page, each with a nonce-based policy of its own. */
const isPage = (path: string) => isFramedPage(path) || path === '/api/docs' || isConsolePage(path);

/** Answers that set their own Content-Security-Policy: SVG images. */
const setsItsOwnPolicy = (path: string) =>
  path.startsWith('/api/flags/') || path.startsWith('/api/products/images/');

/** The return page is asked for inside the widget's iframe (Fetch metadata) or at top level. */
export const askedInFrame = (c: Context) => {
  const dest = c.req.header('sec-fetch-dest');
  return dest === 'iframe' || dest === 'frame';
};

/**
 * `secureHeaders` with what this backend serves in mind: JSON and our own HTML pages may not be framed, except
 * the return page, which the shop's iframe shows (framed only by the allowed origins). Resources are
 * `cross-origin` so shops can load the widget script and product images.
 *
 * Configured for what each answer needs, because it runs on every request (a visible share of the cached
 * catalog's and of /healthz's CPU as configured before: `npm run bench -- profile`): an answer that sets its own CSP (`setsItsOwnPolicy`)
 * keeps it (`overwrite: false`, which asks the headers once more per header); every other answer gets the headers
 * set outright. Nothing here sets `X-Powered-By`, so it is not removed (one more header operation per request).
 */
export function securityHeaders(config: Config): MiddlewareHandler<AppEnv> {
  const common = {
    crossOriginResourcePolicy: 'cross-origin',
    referrerPolicy: 'no-referrer',
    removePoweredBy: false,
  } as const;
  const strictPolicy = { defaultSrc: ["'none'"], frameAncestors: ["'none'"] };
  const documentOnly = {
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  } as const;
  const strict = secureHeaders({
    ...common,
    ...documentOnly,
    xFrameOptions: 'DENY',
    contentSecurityPolicy: strictPolicy,
  });
  const ownPolicy = secureHeaders({
    ...common,
    overwrite: false,
    xFrameOptions: 'DENY',
    contentSecurityPolicy: strictPolicy,
  });
  // Our pages: their one <style> and (the return page's) one <script> carry the request's nonce, nothing else runs
  // or applies; no <base>, no form posts anywhere.
  const pagePolicy = {
    defaultSrc: ["'none'"],
    styleSrc: [NONCE],
    baseUri: ["'none'"],
    formAction: ["'none'"],
  };
  const docsPage = secureHeaders({
    ...common,
    xFrameOptions: 'DENY',
    contentSecurityPolicy: { ...pagePolicy, frameAncestors: ["'none'"] },
  });
  // Only the shop frames the return page (inside the widget's iframe); at top level nobody may.
  const frameAncestors = config.allowedOrigins.join(' ') || "'none'";
  const returnPage = secureHeaders({
    ...common,
    crossOriginOpenerPolicy: false,
    xFrameOptions: false,
    contentSecurityPolicy: {
      ...pagePolicy,
      scriptSrc: [NONCE],
      frameAncestors: [(c) => (askedInFrame(c) ? frameAncestors : "'none'")],
    },
  });
  // The console: its one module script by nonce, and what that script loads (its chunks, 'strict-dynamic');
  // it calls its own origin only. Its styles are Lit's constructed stylesheets and the page's one nonce'd <style>.
  // Framed by no other origin (clickjacking); its own may frame it (a phone-sized frame in WebKit's tests).
  const consolePage = secureHeaders({
    ...common,
    xFrameOptions: 'SAMEORIGIN',
    crossOriginResourcePolicy: 'same-origin',
    contentSecurityPolicy: {
      ...pagePolicy,
      scriptSrc: [NONCE, "'strict-dynamic'"],
      connectSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      frameAncestors: ["'self'"],
    },
  });
  // The claim page: its form posts back to itself only; no other origin frames it (the address typed is the
  // shopper's money); its own may (a phone-sized frame in WebKit's tests, as for the console).
  const claimPage = secureHeaders({
    ...common,
    xFrameOptions: 'SAMEORIGIN',
    contentSecurityPolicy: { ...pagePolicy, formAction: ["'self'"], frameAncestors: ["'self'"] },
  });
  return async (c, next) => {
    const path = c.get('path');
    if (isConsolePage(path)) return consolePage(c, next);
    if (isClaimPage(path)) return claimPage(c, next);
    if (isPage(path)) return isFramedPage(path) ? returnPage(c, next) : docsPage(c, next);
    return setsItsOwnPolicy(path) ? ownPolicy(c, next) : strict(c, next);
  };
}

/**
 * Bodies over `maxBytes` are refused with 413 PAYLOAD_TOO_LARGE before the handler reads them. A request that
 * declares its length (and is not chunked) is judged by that header alone, as Hono's `bodyLimit` itself does; it
 * only meets Hono's middleware when it streams. Asking Hono's middleware first would cost every POST a full
 * undici `Request` (it reads `c.req.raw.body`, which makes the Node adapter build one, with its AbortSignal),
 * a large share of a quote's CPU (`npm run bench -- profile`); the handler's `c.req.json()` then
 * reads the body straight off the socket.
 */
export function limitBody(maxBytes: number): MiddlewareHandler<AppEnv> {
  const refuse = () => {
    throw new AppError('PAYLOAD_TOO_LARGE', `The request body is over ${Math.round(maxBytes / 1024)} kB.`);
  };
  const streamed = bodyLimit({ maxSize: maxBytes, onError: refuse });
  return async (c, next) => {
    const length = c.req.header('content-length');
    if (length === undefined || c.req.header('transfer-encoding') !== undefined) return streamed(c, next);
    if (Number.parseInt(length, 10) > maxBytes) refuse();
    await next();
  };
}
