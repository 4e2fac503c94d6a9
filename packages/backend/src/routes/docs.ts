/**
 * `GET /api/openapi.json` (OpenAPI 3.1 read from the routes' own descriptions, i.e. from the zod schemas the
 * routes validate with and answer in) and `GET /api/docs`, a readable reference rendered here, with no script and
 * no CDN.
 */
import { createRoute } from '@hono/zod-openapi';
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { type OpenApiDocument, openApiRoutes, otherResponse } from '../openapi.ts';

export const apiDescription = `The backend of \`<crypto-checkout>\`: it holds the upstream keys, prices server-side, rations
the upstream and verifies webhooks. Money amounts are decimal strings; every error uses one envelope
\`{ "error": { "code", "message", "requestId", "issues"?, "details"? } }\`.`;

type Operation = {
  summary: string;
  description?: string;
  parameters?: Array<{ name: string; in: string; required: boolean; description?: string; schema: unknown }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
  security?: Array<Record<string, unknown>>;
};

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** A schema as shown: a named one (`$ref`) links to its entry under Schemas. */
function schemaBlock(schema: unknown) {
  const ref = (schema as { $ref?: unknown } | undefined)?.$ref;
  if (typeof ref === 'string') {
    const name = ref.replace('#/components/schemas/', '');
    return html`<p><a href="#schema-${name}"><code>${name}</code></a></p>`;
  }
  return html`<pre>${pretty(schema)}</pre>`;
}

function renderOperation(
  method: string,
  path: string,
  op: Operation,
): HtmlEscapedString | Promise<HtmlEscapedString> {
  const id = `${method}-${path}`.replace(/[^a-z0-9]+/gi, '-');
  return html`<section id="${id}">
    <h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${path}</code></h3>
    <p>${op.summary}</p>
    ${op.description ? html`<p class="muted">${op.description}</p>` : ''}
    ${op.security ? html`<p class="muted">Auth: ${Object.keys(op.security[0] ?? {}).join(', ')}</p>` : ''}
    ${
      op.parameters?.length
        ? html`<table><tr><th>parameter</th><th>in</th><th>required</th><th>notes</th></tr>
          ${op.parameters.map(
            (p) =>
              html`<tr><td><code>${p.name}</code></td><td>${p.in}</td><td>${p.required ? 'yes' : 'no'}</td><td>${p.description ?? ''}</td></tr>`,
          )}</table>`
        : ''
    }
    ${
      op.requestBody
        ? html`<details open><summary>Request body</summary>${schemaBlock(
            Object.values(op.requestBody.content)[0]?.schema,
          )}</details>`
        : ''
    }
    <details><summary>Responses</summary><table>
      ${Object.entries(op.responses).map(
        ([status, response]) =>
          html`<tr><td><code>${status}</code></td><td>${response.description}${
            response.content && Number(status) < 400
              ? schemaBlock(Object.values(response.content)[0]?.schema)
              : ''
          }</td></tr>`,
      )}
    </table></details>
  </section>`;
}

function renderDocs(document: OpenApiDocument, nonce: string) {
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, unknown>).map(([method, op]) => ({
      path,
      method,
      op: op as Operation,
    })),
  );
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${document.info.title}</title>
<style nonce="${nonce}">
  :root { color-scheme: light dark; font: 15px/1.5 system-ui, sans-serif; }
  body { max-width: 960px; margin: 2rem auto; padding: 0 1rem; }
  code, pre { font: 13px ui-monospace, monospace; }
  pre { background: color-mix(in srgb, currentColor 6%, transparent); padding: .75rem; overflow: auto; border-radius: 6px; }
  section { border-top: 1px solid color-mix(in srgb, currentColor 15%, transparent); padding: .5rem 0 1rem; }
  table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
  td, th { text-align: left; vertical-align: top; padding: .25rem .5rem; border-bottom: 1px solid color-mix(in srgb, currentColor 10%, transparent); }
  .method { font: 700 12px ui-monospace, monospace; padding: .1rem .4rem; border-radius: 4px; color: #fff; background: #2563eb; }
  .method.post { background: #16a34a; } .method.delete { background: #dc2626; }
  .muted { opacity: .75; } nav a { margin-right: .75rem; }
</style></head>
<body>
<h1>${document.info.title} <small class="muted">${document.info.version}</small></h1>
<p>${document.info.description}</p>
<p>Machine-readable: <a href="./openapi.json">openapi.json</a> (OpenAPI ${document.openapi}).</p>
<nav>${operations.map(
    ({ path, method }) =>
      html`<a href="#${`${method}-${path}`.replace(/[^a-z0-9]+/gi, '-')}">${method.toUpperCase()} ${path}</a> `,
  )}</nav>
${operations.map(({ path, method, op }) => renderOperation(method, path, op))}
<section><h2>Schemas</h2><p class="muted">A <code>$ref</code> inside one names another of these; every error
is an <code>Error</code>.</p>
${Object.entries(document.components?.schemas ?? {}).map(
  ([name, schema]) => html`<h3 id="schema-${name}"><code>${name}</code></h3><pre>${pretty(schema)}</pre>`,
)}</section>
${raw('</body></html>')}`;
}

const openApiRoute = createRoute({
  method: 'get',
  path: '/openapi.json',
  tags: ['Reference'],
  summary: 'This document',
  responses: { 200: otherResponse('application/json', 'OpenAPI 3.1') },
});

const docsRoute = createRoute({
  method: 'get',
  path: '/docs',
  tags: ['Reference'],
  summary: 'A readable rendering of this document',
  responses: { 200: otherResponse('text/html', 'HTML') },
});

/** `document` gives the app's document (built once, after every route is mounted). */
export function docsRoutes(document: () => OpenApiDocument) {
  return (
    openApiRoutes()
      .openapi(openApiRoute, (c) => {
        c.header('Cache-Control', 'public, max-age=300');
        return c.json(document(), 200);
      })
      // Its CSP (middleware/security.ts) allows the one <style>, by the request's nonce.
      .openapi(docsRoute, async (c) =>
        c.html(await renderDocs(document(), c.get('secureHeadersNonce') ?? '')),
      )
  );
}
