/**
 * CSP violation reports as browsers send them: `report-uri`'s `application/csp-report` body (one report) and the
 * Reporting API's `application/reports+json` body (a list, of which the `csp-violation` ones are read). Each is
 * reduced to what an operator needs and a metric may carry: the directive, and what was blocked as bounded label
 * (an origin, or `inline`, `eval`, `data`… as such), with the page and script by origin and path only.
 */
import { z } from 'zod';

/** A report as the backend keeps it: never a query string (tokens travel in URLs), never the policy or sample. */
export interface CspViolation {
  /** The directive that blocked it (`script-src-elem`, `img-src`, …), `other` when not one of CSP's. */
  directive: string;
  /** What was blocked: an origin (`https://cdn.example`), or `inline`, `eval`, `data`, `blob`, `trusted-types-sink`… */
  blocked: string;
  /** The page, origin and path. */
  document: string;
  /** The script that caused it, origin and path, when the browser names one. */
  source?: string;
  line?: number;
  /** `enforce`, or `report` under Content-Security-Policy-Report-Only. */
  disposition?: string;
}

const text = z.string().max(4096).optional().catch(undefined);
const number = z.coerce.number().int().nonnegative().optional().catch(undefined);

/** `report-uri`'s body (CSP Level 2; Firefox and WebKit send it, Chromium when no `report-to` applies). */
const legacyReport = z.object({
  'csp-report': z.object({
    'document-uri': text,
    'violated-directive': text,
    'effective-directive': text,
    'blocked-uri': text,
    'source-file': text,
    'line-number': number,
    disposition: text,
  }),
});

/** The Reporting API's body (`report-to`): a list of reports, the CSP ones of type `csp-violation`. */
const reportingApiReports = z
  .array(
    z.object({
      type: z.string(),
      url: text,
      body: z
        .object({
          documentURL: text,
          effectiveDirective: text,
          blockedURL: text,
          sourceFile: text,
          lineNumber: number,
          disposition: text,
        })
        .optional(),
    }),
  )
  .max(100);

/** CSP's directives (Level 3, and Trusted Types'): a report naming another is counted as `other`. */
const directives = new Set([
  'default-src',
  'script-src',
  'script-src-elem',
  'script-src-attr',
  'style-src',
  'style-src-elem',
  'style-src-attr',
  'img-src',
  'font-src',
  'connect-src',
  'media-src',
  'object-src',
  'frame-src',
  'child-src',
  'worker-src',
  'manifest-src',
  'prefetch-src',
  'fenced-frame-src',
  'base-uri',
  'form-action',
  'frame-ancestors',
  'navigate-to',
  'require-trusted-types-for',
  'trusted-types',
  'sandbox',
  'webrtc',
]);

/** Values browsers write instead of a URL (`blocked-uri` / `blockedURL`). */
const keywords = new Set([
  'inline',
  'eval',
  'wasm-eval',
  'data',
  'blob',
  'self',
  'trusted-types-sink',
  'trusted-types-policy',
]);

const directiveOf = (value: string | undefined) => {
  const name = value?.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  return directives.has(name) ? name : 'other';
};

/** `inline`, `data`, an origin, or `other`: never a path, query or fragment. */
export function blockedOf(value: string | undefined): string {
  const raw = value?.trim().toLowerCase() ?? '';
  if (!raw) return 'inline';
  if (keywords.has(raw)) return raw;
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(raw)?.[1];
  if (scheme === 'data' || scheme === 'blob') return scheme;
  try {
    const url = new URL(raw);
    return url.origin === 'null' ? `${url.protocol.replace(':', '')}` : url.origin;
  } catch {
    return 'other';
  }
}

/** Origin and path of a URL, without its query and fragment (they can carry tokens). */
const withoutQuery = (value: string | undefined) => {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.origin === 'null' ? url.protocol : `${url.origin}${url.pathname}`;
  } catch {
    return undefined;
  }
};

const violation = (fields: {
  directive?: string;
  blocked?: string;
  document?: string;
  source?: string;
  line?: number;
  disposition?: string;
}): CspViolation => ({
  directive: directiveOf(fields.directive),
  blocked: blockedOf(fields.blocked),
  document: withoutQuery(fields.document) ?? 'unknown',
  ...(withoutQuery(fields.source) ? { source: withoutQuery(fields.source) } : {}),
  ...(fields.line !== undefined ? { line: fields.line } : {}),
  ...(fields.disposition ? { disposition: fields.disposition.slice(0, 16) } : {}),
});

/** The violations in a report body of `contentType`; undefined when the body is neither kind. */
export function parseCspReports(contentType: string, body: unknown): CspViolation[] | undefined {
  const type = contentType.split(';')[0]?.trim().toLowerCase();
  if (type === 'application/reports+json') {
    const parsed = reportingApiReports.safeParse(body);
    if (!parsed.success) return undefined;
    return parsed.data.flatMap((report) =>
      report.type === 'csp-violation' && report.body
        ? [
            violation({
              directive: report.body.effectiveDirective,
              blocked: report.body.blockedURL,
              document: report.body.documentURL ?? report.url,
              source: report.body.sourceFile,
              line: report.body.lineNumber,
              disposition: report.body.disposition,
            }),
          ]
        : [],
    );
  }
  if (type === 'application/csp-report' || type === 'application/json') {
    const parsed = legacyReport.safeParse(body);
    if (!parsed.success) return undefined;
    const report = parsed.data['csp-report'];
    return [
      violation({
        directive: report['effective-directive'] ?? report['violated-directive'],
        blocked: report['blocked-uri'],
        document: report['document-uri'],
        source: report['source-file'],
        line: report['line-number'],
        disposition: report.disposition,
      }),
    ];
  }
  return undefined;
}
