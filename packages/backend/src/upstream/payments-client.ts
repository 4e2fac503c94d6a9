/**
 * The payments API client (docs/upstream.md#payments-api): create an order, create a payment route, list the merchant's orders.
 * Authenticated with `X-API-Key`; every answer parsed leniently (schemas/upstream-payments.ts). Only the list
 * is retried: creating an order or a route is not idempotent upstream, so a retry could charge twice.
 */
import { z } from 'zod';
import { AppError } from '../errors.ts';
import {
  createdOrderSources,
  payEnvelope,
  type UpstreamOrder,
  type UpstreamOrderList,
  type UpstreamPaymentRoute,
  upstreamOrder,
  upstreamOrderList,
  upstreamPaymentRoutes,
} from '../schemas/upstream-payments.ts';
import type { Budget } from './budget.ts';
import { createUpstreamHttp, type UpstreamHttp } from './http.ts';

export interface CreateOrderBody {
  purchase: {
    name: string;
    description?: string | undefined;
    notes?: string | undefined;
    imageUrl?: string | undefined;
    /** Decimal string, as the upstream's own plugin sends it. */
    price: string;
    currency: string;
  };
  /** The `user*` names (one set, consistently; docs/upstream.md#payment-orders); the upstream echoes them in webhooks and lists. */
  metadata: {
    externalId: string;
    redirectUrl?: string | undefined;
    userId?: string | undefined;
    userName?: string | undefined;
    userEmail?: string | undefined;
    userCountry?: string | undefined;
    userLang?: string | undefined;
  };
  testMode?: boolean;
}

export interface CreatedOrder {
  id: string;
  link: string;
  /** The full order when the answer carried one (the documented `data.order`). */
  order: UpstreamOrder | undefined;
}

export interface ListOrdersQuery {
  page?: number | undefined;
  limit?: number | undefined;
  searchId?: string | undefined;
  /** Epoch milliseconds; sent in the unit the client was configured with. */
  startDate?: number | undefined;
  endDate?: number | undefined;
  type?: 'STANDARD' | 'INVOICE' | 'PAYMENT_ROUTE' | undefined;
}

export interface CreatePaymentRouteBody {
  externalId: string;
  chains: string[];
  email?: string | undefined;
  name?: string | undefined;
}

export interface PaymentsClient {
  readonly kind: 'payments';
  /** Not retried. `idempotencyKey` is also sent upstream (`X-Idempotency-Key`) in case it is honoured. */
  createOrder(body: CreateOrderBody, options: { idempotencyKey: string }): Promise<CreatedOrder>;
  /** Not retried. Returns the route of the first requested chain (or the first route). */
  createPaymentRoute(body: CreatePaymentRouteBody): Promise<UpstreamPaymentRoute>;
  listOrders(query?: ListOrdersQuery): Promise<UpstreamOrderList>;
}

export interface PaymentsClientOptions {
  apiUrl: string;
  apiKey: string;
  timeoutMs: number;
  budget?: Budget | undefined;
  /**
   * Unit of `startDate`/`endDate` on the list endpoint. The upstream says "integer" and nothing more (docs/upstream.md#payment-orders);
   * milliseconds match every other timestamp the upstream's JavaScript side produces.
   */
  dateUnit?: 'ms' | 's';
  fetch?: typeof fetch;
  log?: (line: string) => void;
  /** Test hook: a ready-made http (e.g. with a stub fetch). */
  http?: UpstreamHttp;
}

/** `{data: T}` in any of the envelope variants. */
const dataOf = <T extends z.ZodType>(schema: T) => payEnvelope.extend({ data: schema });

export function createPaymentsClient(options: PaymentsClientOptions): PaymentsClient {
  const http =
    options.http ??
    createUpstreamHttp({
      name: 'payments',
      baseUrl: `${options.apiUrl.replace(/\/+$/, '')}/v1`,
      timeoutMs: options.timeoutMs,
      budget: options.budget,
      headers: { 'X-API-Key': options.apiKey },
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
  const toUnit = (ms: number | undefined) =>
    ms === undefined ? undefined : options.dateUnit === 's' ? Math.floor(ms / 1000) : ms;

  return {
    kind: 'payments',

    async createOrder(body, { idempotencyKey }) {
      const raw = await http.post('/orders', {
        body,
        schema: z.unknown(),
        headers: { 'X-Idempotency-Key': idempotencyKey },
      });
      const sources = createdOrderSources.safeParse(raw);
      if (!sources.success) throw new AppError('UPSTREAM_ERROR', 'The payment provider answered oddly.');
      const s = sources.data;
      const id = s.data?.order?.id ?? s.data?.id ?? s.id;
      const link = s.data?.order?.link ?? s.data?.link ?? s.link ?? s.url ?? s.paymentUrl;
      if (!id || !link) {
        throw new AppError('UPSTREAM_ERROR', 'The payment provider did not return an order link.');
      }
      const full = upstreamOrder.safeParse(s.data?.order);
      // The id as it came (`SP-…` or not): it is what the order list's `searchId` knows.
      return { id, link, order: full.success ? full.data : undefined };
    },

    async createPaymentRoute(body) {
      const { data } = await http.post('/payment-routes', {
        body,
        schema: dataOf(upstreamPaymentRoutes),
      });
      const wanted = body.chains[0]?.toLowerCase();
      const match = data.paymentRoutes.find(
        (route) => (route.chainName ?? route.chain)?.toLowerCase() === wanted,
      );
      return match ?? data.paymentRoutes[0]!;
    },

    async listOrders(query = {}) {
      const { data } = await http.get('/merchants/orders', {
        retry: true,
        schema: dataOf(upstreamOrderList),
        query: {
          page: query.page,
          limit: query.limit,
          searchId: query.searchId,
          startDate: toUnit(query.startDate),
          endDate: toUnit(query.endDate),
          type: query.type,
        },
      });
      return data;
    },
  };
}
