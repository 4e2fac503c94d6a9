/**
 * `POST /api/deposit-addresses`: a customer's permanent deposit address (an upstream payment route) for one
 * chain. The customer comes from a token the merchant's server minted; the route is created upstream once per
 * (customer, chain), kept in the store and reused afterwards. The QR code is drawn here so the widget stays light.
 */
import { createRoute } from '@hono/zod-openapi';
import qrcode from 'qrcode-generator';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { createKeyedLock } from '../keyed-lock.ts';
import { errorResponses, jsonBody, jsonResponse, openApiRoutes } from '../openapi.ts';
import { verifyCustomerToken } from '../tokens.ts';
import { isValueRefusal } from '../upstream/http.ts';

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

interface RouteRecord {
  customerId: string;
  chain: string;
  routeId: string | null;
  address: string;
  memo: string | null;
  currencies: string[];
  createdAt: string;
}

/**
 * The address alone, not a `ethereum:` style URI: exchanges' and wallets' scanners agree on a bare address,
 * while URI schemes differ per chain and wallet. The memo, when there is one, is shown as text by the widget.
 */
export function qrSvg(text: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  return qr.createSvgTag({ cellSize: 4, margin: 2, scalable: true });
}

export function depositAddressRoutes(deps: AppDeps) {
  const { config, payments, store, clock } = deps;
  const lock = createKeyedLock();

  return openApiRoutes().openapi(depositAddressRoute, async (c) => {
    const { customerToken, chain } = c.req.valid('json');
    const customer = verifyCustomerToken(customerToken, config.checkoutTokenSecret, clock.now());
    // The chain cannot contain ':', so this key cannot collide across customers.
    const key = `${chain}:${customer.customerId}`;
    const { record, reused } = await lock.run(key, async () => {
      const existing = await store.get<RouteRecord>('routes', key);
      if (existing) return { record: existing, reused: true };
      let route: Awaited<ReturnType<typeof payments.createPaymentRoute>>;
      try {
        route = await payments.createPaymentRoute({
          externalId: customer.customerId,
          chains: [chain],
          email: customer.email,
          name: customer.name,
        });
      } catch (error) {
        // The upstream names the chains it supports; a 4xx about our request means this chain is not one.
        if (isValueRefusal(error)) {
          throw new AppError('VALIDATION_FAILED', 'chain: not supported for deposit addresses', {
            issues: [{ path: 'chain', message: 'not supported for deposit addresses' }],
          });
        }
        throw error;
      }
      const created: RouteRecord = {
        customerId: customer.customerId,
        chain,
        routeId: route.id ?? null,
        address: route.address,
        memo: route.memo || null,
        currencies: route.supportedCurrencies.filter(Boolean),
        createdAt: route.createdAt ?? new Date(clock.now()).toISOString(),
      };
      await store.set('routes', key, created);
      return { record: created, reused: false };
    });
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
