/**
 * The Content-Security-Policy a storefront page embedding `<crypto-checkout>` needs, computed from this backend's
 * configuration: `storefrontCsp(config)` for a merchant's server code, `crypto-checkout-backend csp` on the command
 * line. Nothing is allowed that the element does not use: its script and API on the backend's origin, the upstream's
 * pages it frames, the images it shows, the Trusted Types policies it creates, and reports sent to `/api/csp-reports`.
 */
import { loadProductsSync } from '../products.ts';

/** The parts of the configuration the policy follows (a `Config` has them all). */
export interface CspConfig {
  publicUrl: string;
  mode: 'sandbox' | 'live';
  productsFile: string | null;
  ramp: { apiUrl: string; widgetUrl: string };
}

export interface StorefrontCspOptions {
  /**
   * Origins the payment links open on, framed by the inline and modal displays. The upstream's documentation does
   * not name its payment page's host (docs/upstream.md, "Payment orders"): a live merchant names it here (the
   * origin of an order's `link`). The sandbox's pages are on the backend's own origin, which is always allowed.
   */
  payPageOrigins?: readonly string[];
  /** Sources of the page's own, merged in (`{ 'style-src': ["'self'"] }`): a `'none'` they replace is dropped. */
  extra?: Readonly<Record<string, readonly string[]>>;
}

export interface StorefrontCsp {
  /** Each directive and its sources, in the order they are written. */
  directives: Record<string, string[]>;
  /** The value of `Content-Security-Policy`. */
  policy: string;
  /** The value of `Reporting-Endpoints` (the `csp` endpoint that `report-to` names); none for an http: backend. */
  reportingEndpoints: string | undefined;
  /** The headers, to set as they are on every page that shows the element. */
  headers: { 'Content-Security-Policy': string; 'Reporting-Endpoints'?: string };
}

/**
 * The Trusted Types policies the element creates: Lit's (`lit-html`, for its templates) and the element's own
 * (`crypto-checkout`, the loader's script URLs). No other name is allowed.
 */
export const trustedTypePolicies = ['lit-html', 'crypto-checkout'] as const;

/** Where browsers send violation reports (`report-uri` and the Reporting API's `report-to csp`). */
export const cspReportPath = '/api/csp-reports';

const originOf = (url: string) => new URL(url).origin;

/** Origins of product images that are absolute URLs (local ones are served by the backend itself). */
function productImageOrigins(file: string | null): string[] {
  if (!file) return [];
  return loadProductsSync(file).flatMap((product) =>
    product.image && /^https?:\/\//.test(product.image) ? [originOf(product.image)] : [],
  );
}

export function storefrontCsp(config: CspConfig, options: StorefrontCspOptions = {}): StorefrontCsp {
  const backend = originOf(config.publicUrl);
  const reportUrl = `${config.publicUrl}${cspReportPath}`;
  // The Reporting API sends reports to https: endpoints only, and Chromium, given a `report-to`, ignores
  // `report-uri`: an http: backend (the sandbox on this machine) is named by `report-uri` alone, or Chromium
  // would send nothing at all.
  const reportingApi = reportUrl.startsWith('https:');
  const directives: Record<string, string[]> = {
    'default-src': ["'none'"],
    // The loader and its chunks (/widget/…), nothing inline, nothing evaluated.
    'script-src': [backend],
    // Lit's styles are constructed stylesheets (adoptedStyleSheets), which style-src does not govern; the
    // element sets the frame's height through CSSOM, never a style attribute.
    'style-src': ["'none'"],
    // The API, and the order status stream (EventSource).
    'connect-src': [backend],
    // Product images and flags from the backend, payment method and coin icons from the ramp's hosts, the
    // deposit address's QR code (an SVG data: URL the element draws), the catalog's remote product images.
    'img-src': [
      backend,
      originOf(config.ramp.apiUrl),
      originOf(config.ramp.widgetUrl),
      ...productImageOrigins(config.productsFile),
      'data:',
    ],
    // The ramp's page, the payment page, and the backend's return page the payment page ends on.
    'frame-src': [originOf(config.ramp.widgetUrl), ...(options.payPageOrigins ?? []), backend],
    'base-uri': ["'none'"],
    'require-trusted-types-for': ["'script'"],
    'trusted-types': [...trustedTypePolicies],
    'report-uri': [reportUrl],
    ...(reportingApi ? { 'report-to': ['csp'] } : {}),
  };
  for (const [name, sources] of Object.entries(options.extra ?? {})) {
    const kept = (directives[name] ?? []).filter((source) => source !== "'none'" || !sources.length);
    directives[name] = [...kept, ...sources];
  }
  for (const [name, sources] of Object.entries(directives)) directives[name] = [...new Set(sources)];
  const policy = Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
  const reportingEndpoints = reportingApi ? `csp="${reportUrl}"` : undefined;
  return {
    directives,
    policy,
    reportingEndpoints,
    headers: {
      'Content-Security-Policy': policy,
      ...(reportingEndpoints ? { 'Reporting-Endpoints': reportingEndpoints } : {}),
    },
  };
}
