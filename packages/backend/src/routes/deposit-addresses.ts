/** `POST /api/deposit-addresses`: a customer's permanent deposit address on a chain (deposits/addresses.ts). */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { createDepositAddresses, qrSvg } from '../deposits/addresses.ts';
import type { AppDeps } from '../deps.ts';
import { errorResponses, jsonBody, jsonResponse, openApiRoutes } from '../openapi.ts';

export const depositAddressBody = z.object({
  customerToken: z.string().min(1).max(4096),
  chain: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9-]{2,32}$/, 'must be a chain id like "base"'),
});

export const depositAddressSchema = z
  .object({
    chain: z.string(),
    address: z.string(),
    memo: z.string().nullable().describe('Show it next to the address when there is one'),
    currencies: z.array(z.string()),
    qrSvg: z.string().describe('An SVG QR code of the bare address'),
    createdAt: z.string(),
    reused: z.boolean().describe('false the first time, true afterwards'),
  })
  .meta({ id: 'DepositAddress' });

const depositAddressRoute = createRoute({
  method: 'post',
  path: '/',
  tags: ['Deposits'],
  summary: "The customer's permanent deposit address on a chain (created once, then reused)",
  request: { body: jsonBody(depositAddressBody) },
  responses: {
    200: jsonResponse(depositAddressSchema, 'The address'),
    ...errorResponses(
      'BAD_REQUEST',
      'VALIDATION_FAILED',
      'TOKEN_INVALID',
      'TOKEN_EXPIRED',
      'UPSTREAM_ERROR',
      'UPSTREAM_TIMEOUT',
    ),
  },
});

export function depositAddressRoutes(deps: AppDeps) {
  const addresses = createDepositAddresses(deps);
  return openApiRoutes().openapi(depositAddressRoute, async (c) => {
    const { customerToken, chain } = c.req.valid('json');
    const { record, reused } = await addresses.of(customerToken, chain);
    const answer: z.output<typeof depositAddressSchema> = {
      chain: record.chain,
      address: record.address,
      memo: record.memo,
      currencies: record.currencies,
      qrSvg: qrSvg(record.address),
      createdAt: record.createdAt,
      reused,
    };
    return c.json(answer, 200);
  });
}
