/**
 * Route descriptors for the OpenAPI document. Each route module exports a static list of `describeRoute(...)`
 * built from the same zod schemas its handlers validate with; `routes/docs.ts` assembles them. Nothing here is
 * mutable: no registry fills up at import time.
 */
import { z } from 'zod';
import { type ErrorCode, errorCodes } from '../errors.ts';

export interface ResponseDoc {
  description: string;
  /** JSON body; omit for empty or non-JSON answers (then give `contentType`). */
  schema?: z.ZodType;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI form: `/api/products/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  request?: {
    body?: z.ZodType;
    query?: z.ZodType;
    params?: z.ZodType;
    headers?: z.ZodType;
  };
  responses: Record<number, ResponseDoc>;
  /** Error codes this route can answer with (the envelope), beyond the ones every route may give. */
  errors?: ErrorCode[];
  security?: 'admin' | 'statusToken' | 'webhookSignature';
}

/**
 * Whether a documented response schema's output is exactly `Actual`, the type its handler returns. Next to a
 * descriptor whose handler builds its answer from a type of its own, write
 * `export type XIsDocumented = Assert<SameAs<typeof schema, X>>`: a response that drifts from its reference is
 * then a type error.
 */
export type SameAs<S extends z.ZodType, Actual> = [z.output<S>] extends [Actual]
  ? [Actual] extends [z.output<S>]
    ? true
    : false
  : false;
export type Assert<T extends true> = T;

/** Typed identity: lets route files write descriptors with checking and no registry. */
export const describeRoute = (doc: RouteDoc): RouteDoc => doc;

/** Every route may answer these. */
const commonErrors: ErrorCode[] = ['INTERNAL', 'RATE_LIMITED'];

export const errorEnvelopeSchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    requestId: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});

type JsonSchema = Record<string, unknown>;

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  });
  return rest;
};

/** Query, path or header parameters from an object schema's properties. */
function parameters(schema: z.ZodType | undefined, where: 'query' | 'path' | 'header'): JsonSchema[] {
  if (!schema) return [];
  const shape = jsonSchema(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(shape.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (shape.required ?? []).includes(name),
    ...(typeof property['description'] === 'string' ? { description: property['description'] } : {}),
    schema: property,
  }));
}

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
  serverUrl: string;
}

/** An OpenAPI 3.1 document (JSON Schema 2020-12 dialect, which zod's converter writes). */
export function buildOpenApi(routes: readonly RouteDoc[], info: OpenApiInfo) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const errors = [...new Set([...(route.errors ?? []), ...commonErrors])];
    const errorResponses: Record<string, unknown> = {};
    for (const code of errors) {
      const status = String(errorCodes[code]);
      const existing = errorResponses[status] as { description: string } | undefined;
      errorResponses[status] = {
        description: existing ? `${existing.description}, ${code}` : code,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    const responses: Record<string, unknown> = { ...errorResponses };
    for (const [status, response] of Object.entries(route.responses)) {
      responses[status] = {
        description: response.description,
        ...(response.headers
          ? {
              headers: Object.fromEntries(
                Object.entries(response.headers).map(([name, description]) => [
                  name,
                  { description, schema: { type: 'string' } },
                ]),
              ),
            }
          : {}),
        ...(response.schema
          ? { content: { 'application/json': { schema: jsonSchema(response.schema, 'output') } } }
          : response.contentType
            ? { content: { [response.contentType]: { schema: { type: 'string' } } } }
            : {}),
      };
    }
    const operation = {
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      operationId: `${route.method}${route.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
      parameters: [
        ...parameters(route.request?.params, 'path'),
        ...parameters(route.request?.query, 'query'),
        ...parameters(route.request?.headers, 'header'),
      ],
      ...(route.request?.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchema(route.request.body, 'input') } },
            },
          }
        : {}),
      responses,
      ...(route.security ? { security: [{ [route.security]: [] }] } : {}),
    };
    paths[route.path] ??= {};
    paths[route.path]![route.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      schemas: { Error: jsonSchema(errorEnvelopeSchema, 'output') },
      securitySchemes: {
        admin: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
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

export type OpenApiDocument = ReturnType<typeof buildOpenApi>;
