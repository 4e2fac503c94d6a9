/**
 * The OpenAPI description lives on each route (`@hono/zod-openapi`): a route module builds its sub-app with
 * `openApiRoutes()` and registers each route with `.openapi(createRoute({...}), handler)`. The request schemas of
 * a route are the ones that validate it, and its response schemas type what its handler may send, so the
 * reference cannot drift from the routes. This module holds the shared pieces and reads the document from the
 * mounted app's registry.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import type { AppEnv } from './deps.ts';
import { type ErrorCode, errorCodes } from './errors.ts';
import { validationError } from './middleware/validate.ts';

export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      requestId: z.string(),
      issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: 'Error' });

/** A sub-app whose routes carry their description; a request that fails its schema is 422 VALIDATION_FAILED. */
export function openApiRoutes() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error);
    },
  });
}

/** A JSON answer of a route. */
export const jsonResponse = <S extends z.ZodType>(schema: S, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** A required JSON request body (anything else is 400 BAD_REQUEST). */
export const jsonBody = <S extends z.ZodType>(schema: S) => ({
  required: true,
  content: { 'application/json': { schema } },
});

/** An answer that is not JSON (an image, HTML, a script, an event stream). */
export const otherResponse = (contentType: string, description: string) => ({
  description,
  content: { [contentType]: { schema: { type: 'string' as const } } },
});

type ErrorResponse = {
  description: string;
  content: { 'application/json': { schema: typeof errorEnvelopeSchema } };
};
type ErrorResponses<C extends ErrorCode> = { [S in (typeof errorCodes)[C]]: ErrorResponse };

/** The envelope answers a route may give, one per status naming its codes (INTERNAL and RATE_LIMITED: every route). */
export function errorResponses<const C extends ErrorCode>(...codes: C[]): ErrorResponses<C> {
  const responses: Record<number, ErrorResponse> = {};
  for (const code of codes) {
    const status = errorCodes[code];
    const existing = responses[status];
    responses[status] = {
      description: existing ? `${existing.description}, ${code}` : code,
      content: { 'application/json': { schema: errorEnvelopeSchema } },
    };
  }
  return responses as ErrorResponses<C>;
}

/** Every route may answer these (SERVICE_UNAVAILABLE: the database or Redis is away for a moment). */
const commonErrors: ErrorCode[] = ['INTERNAL', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE'];

/** A documented route as the registry holds it (the contract test reads the response schemas from here). */
export interface DocumentedRoute {
  method: string;
  path: string;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/** Every route registered on `app` and the apps mounted under it, with full paths (`/api/orders/{id}`). */
export function documentedRoutes(app: Pick<OpenAPIHono, 'openAPIRegistry'>): DocumentedRoute[] {
  return app.openAPIRegistry.definitions.flatMap((definition) =>
    definition.type === 'route' ? [definition.route as DocumentedRoute] : [],
  );
}

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
  serverUrl: string;
}

type Operation = {
  operationId?: string;
  responses?: Record<string, unknown>;
};

/** The OpenAPI 3.1 document of `app` (JSON Schema 2020-12 dialect), with the error envelope on every route. */
export function openApiDocument(app: Pick<OpenAPIHono, 'getOpenAPI31Document'>, info: OpenApiInfo) {
  const document = app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    servers: [{ url: info.serverUrl }],
  });
  const common = errorResponses(...commonErrors) as Record<string, unknown>;
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    for (const [method, value] of Object.entries(methods as Record<string, Operation>)) {
      value.operationId ??= `${method}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`;
      const own = (value.responses ?? {}) as Record<string, { description?: string }>;
      const merged: Record<string, unknown> = { ...common, ...own };
      // A status the route documents itself (503 UPSTREAM_BUSY) still names the common code it may carry.
      for (const [status, shared] of Object.entries(common) as Array<[string, { description: string }]>) {
        const mine = own[status];
        if (mine?.description && !mine.description.includes(shared.description))
          merged[status] = { ...mine, description: `${mine.description}, ${shared.description}` };
      }
      value.responses = merged;
    }
  }
  return {
    ...document,
    components: {
      ...document.components,
      securitySchemes: {
        admin: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The token of an admin credential (ADMIN_CREDENTIALS, read or write scope; or the older ADMIN_TOKEN)',
        },
        statusToken: { type: 'apiKey', in: 'header', name: 'X-Status-Token' },
        webhookSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'x-swapped-signature',
          description: 'base64 HMAC-SHA256 of the raw body (`signature` on the ramp webhook)',
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;

/** `security` of a route: which scheme of the document's `securitySchemes` it needs. */
export const securedBy = (scheme: 'admin' | 'statusToken' | 'webhookSignature') => [{ [scheme]: [] }];
