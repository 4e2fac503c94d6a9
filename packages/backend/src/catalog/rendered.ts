/**
 * Each country's catalog as sent: built and serialised once per refresh of the ramp's lists, compressed once,
 * with its ETag. The catalog is the first thing every widget asks for, and it only changes when the ramp client
 * refreshes its upstream lists (minutes) or its rates move enough to show; a refresh brings new source objects,
 * which is what invalidates an entry.
 */
import { createHash } from 'node:crypto';
import { type Precompressed, precompress } from '../precompressed.ts';
import type { FxRates } from '../quotes/fx.ts';
import type { RampClient } from '../upstream/ramp-client.ts';
import { assembleCatalog, type CatalogSources, type Pricing } from './assemble.ts';

/** A country's catalog as sent: serialised once, with its ETag, for as long as its sources stay the same. */
export interface RenderedCatalog {
  sources: CatalogSources;
  /** The ramp client's `fxVersion` when the methods' terms were converted. */
  fxVersion: number;
  /** The JSON, and compressed once here: it is the first thing every widget downloads (its time: bench `ttfq`). */
  body: Precompressed;
  etag: string;
  /** Whether the ramp serves the country (else a header-derived country falls back to the default). */
  served: boolean;
}

/** Enough for every country the ramp serves; past it (someone walking `?country=AA…ZZ`) the memo starts over. */
const MAX_RENDERED = 300;

/** Whether `If-None-Match` names this ETag (weak comparison, as RFC 9110 asks for GET). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === etag;
  });
}

/** The catalogs of one backend: `render(country)` answers the one kept while its sources are the same. */
export function createRenderedCatalogs(
  ramp: Pick<RampClient, 'supported' | 'paymentMethods' | 'payoutMethods'>,
  fx: Pick<FxRates, 'fx' | 'version'>,
  markup: number,
) {
  const rendered = new Map<string, RenderedCatalog>();
  const pricing: Pricing = { fx: (fiat) => fx.fx(fiat), markup };
  return async function render(country: string): Promise<RenderedCatalog> {
    const sources: CatalogSources = await Promise.all([
      ramp.supported(),
      ramp.paymentMethods(country),
      ramp.payoutMethods(country),
    ]);
    const hit = rendered.get(country);
    // Quotes reveal exact rates after the fee tables' rough ones, and rates move: the terms are converted again
    // when the ramp client says its rates have moved enough to show (a counter, so each request only compares).
    const fxVersion = fx.version();
    if (hit?.fxVersion === fxVersion && hit.sources.every((source, index) => source === sources[index]))
      return hit;
    const catalog = assembleCatalog(country, sources, pricing);
    const body = JSON.stringify(catalog);
    const entry: RenderedCatalog = {
      sources,
      fxVersion,
      body: precompress(body, 'fast'),
      etag: `"${createHash('sha1').update(body).digest('base64url')}"`, // a content tag, not a secret
      served: catalog.countries.some((entry) => entry.code === country),
    };
    if (rendered.size >= MAX_RENDERED) rendered.clear();
    rendered.set(country, entry);
    return entry;
  };
}
