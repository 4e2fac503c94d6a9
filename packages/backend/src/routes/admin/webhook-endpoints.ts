/**
 * Webhook endpoints managed through the admin API (events/endpoints.ts keeps them): list, create (its secret
 * answered once), change, pause, delete, rotate the secret (the old one signs beside it for a day), send a test
 * event, replay a time range, and read its deliveries with their attempts. MERCHANT_WEBHOOK_URL's endpoints are
 * listed with source `config`: read only here.
 */
import { $, createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { noteAudit } from '../../admin/audit.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { createEndpointDeliveries, readDeliveryCursor } from '../../events/endpoint-deliveries.ts';
import { type Endpoint, endpointEventFilters, hears } from '../../events/endpoints.ts';
import { errorResponses, jsonBody, jsonResponse, openApiRoutes } from '../../openapi.ts';
import { adminErrors, adminRoute, dateParam, intParam } from './admin-route.ts';
import { attemptsOf, eventStateOf } from './orders.ts';

export const endpointSchema = z
  .object({
    id: z.string().describe('`we_…`'),
    url: z.string(),
    events: z.array(z.string()).describe("Event types it receives; ['*'] = all"),
    enabled: z.boolean().describe('false: paused, it receives nothing'),
    description: z.string().nullable(),
    source: z.enum(['config', 'api']).describe('config: MERCHANT_WEBHOOK_URL (read only here)'),
    createdAt: z.string(),
  })
  .meta({ id: 'WebhookEndpoint' });

const url = z.url({ protocol: /^https?$/ }).max(2000);
const events = z
  .array(z.enum(endpointEventFilters))
  .min(1)
  .max(endpointEventFilters.length)
  .describe("Event types, or ['*'] for all");
const description = z.string().trim().max(500);

export const createEndpointBody = z.strictObject({ url, events, description: description.optional() });
export const patchEndpointBody = z
  .strictObject({
    url: url.optional(),
    events: events.optional(),
    enabled: z.boolean().optional(),
    description: description.nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'give a field to change', path: ['url'] });
export const replayBody = z
  .strictObject({ from: dateParam, to: dateParam })
  .refine((body) => body.to > body.from, { message: 'must be after from', path: ['to'] });

const secretResponse = z.object({
  secret: z.string().describe('The Standard Webhooks secret: shown this once'),
});
const idParam = z.object({ id: z.string().min(1).max(100) });
const deliveriesQuery = z.strictObject({
  limit: intParam(1, 100, 25),
  cursor: z.string().max(500).optional(),
});
const deliveryView = z.object({
  eventId: z.string(),
  type: z.string(),
  orderId: z.string().nullable(),
  createdAt: z.string(),
  state: z.enum(['pending', 'delivered', 'failed']),
  eventState: z.enum(['pending', 'delivered', 'failed']),
  nextAttemptAt: z.string(),
  attempts: z.array(
    z.object({
      at: z.string(),
      status: z.number().int().nullable(),
      error: z.string().nullable(),
      responseExcerpt: z.string().nullable(),
    }),
  ),
});

const route = <R extends Parameters<typeof createRoute>[0]>(r: R) => createRoute({ ...adminRoute, ...r });
const notFound = () => errorResponses('NOT_FOUND');

const listRoute = route({
  method: 'get',
  path: '/webhook-endpoints',
  summary: 'The webhook endpoints: configured (MERCHANT_WEBHOOK_URL) and made here',
  responses: {
    200: jsonResponse(z.object({ endpoints: z.array(endpointSchema) }), 'Every endpoint'),
    ...adminErrors(),
  },
});
const createEndpointRoute = route({
  method: 'post',
  path: '/webhook-endpoints',
  summary: 'Adds an endpoint; its Standard Webhooks secret is answered this once',
  request: { body: jsonBody(createEndpointBody) },
  responses: {
    201: jsonResponse(z.object({ endpoint: endpointSchema, secret: z.string() }), 'Created'),
    ...adminErrors(),
  },
});
const patchRoute = route({
  method: 'patch',
  path: '/webhook-endpoints/{id}',
  summary:
    'Changes an endpoint: its URL, event types, description, or pauses (enabled: false) and resumes it',
  request: { params: idParam, body: jsonBody(patchEndpointBody) },
  responses: {
    200: jsonResponse(z.object({ endpoint: endpointSchema }), 'Changed'),
    ...adminErrors(),
    ...errorResponses('NOT_FOUND', 'ENDPOINT_READ_ONLY'),
  },
});
const deleteRoute = route({
  method: 'delete',
  path: '/webhook-endpoints/{id}',
  summary: 'Deletes an endpoint (its pending deliveries are given up)',
  request: { params: idParam },
  responses: {
    204: { description: 'Deleted' },
    ...adminErrors(),
    ...errorResponses('NOT_FOUND', 'ENDPOINT_READ_ONLY'),
  },
});
const rotateRoute = route({
  method: 'post',
  path: '/webhook-endpoints/{id}/rotate-secret',
  summary: 'A new secret, answered once; the old one keeps signing beside it for 24 hours',
  request: { params: idParam },
  responses: {
    200: jsonResponse(secretResponse, 'The new secret'),
    ...adminErrors(),
    ...errorResponses('NOT_FOUND', 'ENDPOINT_READ_ONLY'),
  },
});
const testRoute = route({
  method: 'post',
  path: '/webhook-endpoints/{id}/test',
  summary: 'Sends a `webhook.test` event to this endpoint alone',
  request: { params: idParam },
  responses: {
    202: jsonResponse(z.object({ eventId: z.string() }), 'Queued'),
    ...adminErrors(),
    ...notFound(),
  },
});
const replayRoute = route({
  method: 'post',
  path: '/webhook-endpoints/{id}/replay',
  summary: 'Sends this endpoint again every event it hears that was created in [from, to)',
  request: { params: idParam, body: jsonBody(replayBody) },
  responses: {
    202: jsonResponse(z.object({ queued: z.number().int() }), 'Queued'),
    ...adminErrors(),
    ...notFound(),
  },
});
const deliveriesRoute = route({
  method: 'get',
  path: '/webhook-endpoints/{id}/deliveries',
  summary: "This endpoint's deliveries, newest event first, with each attempt",
  request: { params: idParam, query: deliveriesQuery },
  responses: {
    200: jsonResponse(
      z.object({ deliveries: z.array(deliveryView), nextCursor: z.string().nullable() }),
      'A page',
    ),
    ...adminErrors(),
    ...notFound(),
  },
});

export function webhookEndpointRoutes(deps: AppDeps) {
  const { endpoints, store, outbox, clock } = deps;
  const deliveries = createEndpointDeliveries(store, outbox);
  const iso = () => new Date(clock.now()).toISOString();
  const found = async (id: string): Promise<Endpoint> => {
    const endpoint = await endpoints.get(id);
    if (!endpoint) throw new AppError('NOT_FOUND', 'No webhook endpoint has that id.');
    return endpoint;
  };
  /** An API endpoint, for a change: a configured one is changed in the environment. */
  const changeable = async (id: string) => {
    const endpoint = await found(id);
    if (endpoint.source === 'config')
      throw new AppError(
        'ENDPOINT_READ_ONLY',
        'This endpoint comes from MERCHANT_WEBHOOK_URL: change it (and MERCHANT_WEBHOOK_SECRET) in the environment.',
      );
    return endpoint;
  };
  return $(openApiRoutes())
    .openapi(listRoute, async (c) => c.json({ endpoints: await endpoints.list() }, 200))
    .openapi(createEndpointRoute, async (c) => {
      const body = c.req.valid('json');
      noteAudit(c, { details: { url: body.url, events: body.events } });
      const made = await endpoints.create(body);
      noteAudit(c, { target: made.endpoint.id });
      return c.json(made, 201);
    })
    .openapi(patchRoute, async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      noteAudit(c, { target: id, details: { ...body } });
      await changeable(id);
      const endpoint = await endpoints.patch(id, body);
      if (!endpoint) throw new AppError('NOT_FOUND', 'No webhook endpoint has that id.');
      return c.json({ endpoint }, 200);
    })
    .openapi(deleteRoute, async (c) => {
      const { id } = c.req.valid('param');
      noteAudit(c, { target: id });
      await changeable(id);
      await endpoints.remove(id);
      return c.body(null, 204);
    })
    .openapi(rotateRoute, async (c) => {
      const { id } = c.req.valid('param');
      noteAudit(c, { target: id });
      await changeable(id);
      const secret = await endpoints.rotate(id);
      if (!secret) throw new AppError('NOT_FOUND', 'No webhook endpoint has that id.');
      return c.json({ secret }, 200);
    })
    .openapi(testRoute, async (c) => {
      const { id } = c.req.valid('param');
      noteAudit(c, { target: id });
      const endpoint = await found(id);
      const eventId = await deliveries.sendTest(endpoint.id, endpoints.targetOf(endpoint), iso());
      noteAudit(c, { target: id, details: { eventId } });
      return c.json({ eventId }, 202);
    })
    .openapi(replayRoute, async (c) => {
      const { id } = c.req.valid('param');
      const { from, to } = c.req.valid('json');
      const range = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
      noteAudit(c, { target: id, details: range });
      const endpoint = await found(id);
      const queued = await deliveries.replay(
        endpoints.targetOf(endpoint),
        (event) => hears(endpoint.events, event.type),
        range,
        iso(),
      );
      noteAudit(c, { target: id, details: { ...range, queued } });
      return c.json({ queued }, 202);
    })
    .openapi(deliveriesRoute, async (c) => {
      const { id } = c.req.valid('param');
      const { limit, cursor } = c.req.valid('query');
      const position = cursor ? readDeliveryCursor(cursor) : undefined;
      if (cursor && !position)
        throw new AppError('VALIDATION_FAILED', 'The cursor is not one this backend gave.', {
          issues: [{ path: 'cursor', message: 'not a cursor of this list' }],
        });
      const endpoint = await found(id);
      const page = await deliveries.list(endpoints.targetOf(endpoint), limit, position);
      return c.json(
        {
          deliveries: page.deliveries.map(({ entry, delivery }) => ({
            eventId: entry.event.id,
            type: entry.event.type,
            orderId: entry.orderId,
            createdAt: entry.createdAt,
            state: delivery.state,
            eventState: eventStateOf(entry),
            nextAttemptAt: delivery.nextAttemptAt,
            attempts: attemptsOf(delivery),
          })),
          nextCursor: page.nextCursor,
        },
        200,
      );
    });
}
