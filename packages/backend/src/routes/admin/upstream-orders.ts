/**
 * The upstream's own list of the merchant's orders (every order of the account, payment links included), read
 * through and normalised (`AdminOrder`'s upstream fields). The ledger's search is `GET /api/admin/orders`
 * (orders.ts); this is what the upstream says, paged its way.
 */
import { $, createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { jsonResponse, openApiRoutes } from '../../openapi.ts';
import type { OrderRecord } from '../../orders/order.ts';
import { mapUpstreamStatus, orderStatuses } from '../../orders/status.ts';
import { factsOf } from '../../orders/upstream-facts.ts';
import type { UpstreamOrder } from '../../schemas/upstream-payments.ts';
import { adminErrors, adminRoute, dateParam, intParam } from './admin-route.ts';

export const adminOrdersQuery = z
  .object({
    page: intParam(1, 1_000_000, 1),
    limit: intParam(1, 100, 20),
    searchId: z.string().trim().min(1).max(100).optional(),
    startDate: dateParam.optional(),
    endDate: dateParam.optional(),
    type: z.enum(['STANDARD', 'INVOICE', 'PAYMENT_ROUTE']).optional(),
  })
  .refine((q) => q.startDate === undefined || q.endDate === undefined || q.endDate >= q.startDate, {
    message: 'must not be before startDate',
    path: ['endDate'],
  });

const nullableText = z.string().nullable();
const paidSchema = z.object({ amount: z.string(), currency: z.string() });

/** One order as the merchant routes show it (API.md `AdminOrder`); `adminOrder` builds it. */
export const adminOrderSchema = z.object({
  id: z.string().describe("The upstream's order id"),
  externalId: nullableText.describe('Our orderId for orders this backend created'),
  type: nullableText.describe('STANDARD | INVOICE | PAYMENT_ROUTE'),
  link: nullableText,
  status: z.enum(orderStatuses).nullable(),
  upstreamStatus: nullableText,
  purchase: z.object({
    name: nullableText,
    price: nullableText,
    currency: nullableText,
    notes: nullableText,
  }),
  paid: paidSchema.nullable(),
  customer: z.object({ id: nullableText, name: nullableText, email: nullableText, country: nullableText }),
  createdAt: nullableText,
  expiresAt: nullableText,
  payments: z.array(
    z.object({
      id: nullableText,
      amount: nullableText,
      currency: nullableText,
      status: nullableText,
      txHash: nullableText,
      confirmedAt: nullableText,
    }),
  ),
  updates: z.array(z.object({ id: nullableText, message: nullableText, at: nullableText })),
});
export type AdminOrder = z.output<typeof adminOrderSchema>;

export const adminOrdersResponse = z.object({
  orders: z.array(adminOrderSchema),
  pagination: z.object({
    page: z.number().int(),
    limit: z.number().int(),
    totalPages: z.number().int().nullable(),
    totalItems: z.number().int().nullable(),
  }),
});

export function adminOrder(order: UpstreamOrder): AdminOrder {
  const upstreamStatus = order.status?.toUpperCase() ?? null;
  const customer = order.metadata?.customer;
  return {
    id: order.id,
    externalId: order.externalId ?? order.metadata?.externalId ?? null,
    type: order.initType ?? null,
    link: order.link ?? null,
    status: upstreamStatus ? (mapUpstreamStatus(upstreamStatus) ?? null) : null,
    upstreamStatus,
    purchase: {
      name: order.purchase?.name ?? null,
      price: order.purchase?.price ?? null,
      currency: order.purchase?.currency ?? null,
      notes: order.purchase?.notes ?? null,
    },
    paid: factsOf(order)?.paid ?? null,
    customer: {
      id: customer?.id ?? null,
      name: customer?.name ?? null,
      email: customer?.email ?? null,
      country: customer?.country ?? null,
    },
    createdAt: order.createdAt ?? null,
    expiresAt: order.expiresAt ?? null,
    payments: order.payments.map((payment) => ({
      id: payment.id ?? null,
      amount: payment.receivedAmount ?? null,
      currency: payment.receivedCurrency ?? null,
      status: payment.status ?? null,
      txHash: payment.txHash ?? null,
      confirmedAt: payment.confirmedAt ?? null,
    })),
    updates: order.updates.map((update) => ({
      id: update.id ?? null,
      message: update.message ?? null,
      at: update.timestamp ?? update.createdAt ?? null,
    })),
  };
}

const ordersRoute = createRoute({
  ...adminRoute,
  method: 'get',
  path: '/upstream-orders',
  summary:
    "The upstream's orders (every order of the merchant's account, payment links too), with payments and updates",
  request: { query: adminOrdersQuery },
  responses: { 200: jsonResponse(adminOrdersResponse, 'A page of orders'), ...adminErrors() },
});

export function upstreamOrderRoutes(deps: AppDeps) {
  const { payments, store } = deps;
  return $(openApiRoutes()).openapi(ordersRoute, async (c) => {
    const query = c.req.valid('query');
    // Either reference finds the order: the upstream's id (what its payment page shows) or ours (`ord_…`, the
    // upstream's externalId), which is looked up here, as an upstream may match only its own ids.
    const ours = query.searchId ? await store.get<OrderRecord>('orders', query.searchId) : undefined;
    const list = await payments.listOrders(ours ? { ...query, searchId: ours.upstreamId } : query);
    const p = list.pagination;
    const page: z.output<typeof adminOrdersResponse> = {
      orders: list.orders.map(adminOrder),
      pagination: {
        page: p?.currentPage ?? query.page,
        limit: p?.itemsPerPage ?? query.limit,
        totalPages: p?.totalPages ?? null,
        totalItems: p?.totalItems ?? null,
      },
    };
    return c.json(page, 200);
  });
}
