/**
 * One order of the ledger as the admin routes show it (`AdminOrder`): the order this backend made, joined with
 * the upstream's view where the ledger lacks a field (the order's type, the purchase's internal note, the
 * upstream's updates log, payments no webhook has told yet). The upstream's own fields keep their names, so a
 * client of the upstream list (upstream-orders.ts) reads these too.
 */
import { z } from 'zod';
import type { OrderRecord } from '../../orders/order.ts';
import { orderStatuses } from '../../orders/status.ts';
import { adminRefund, adminRefundSchema, type RefundRecord } from '../../refunds/refund.ts';
import { refundedTotal } from '../../refunds/refunds.ts';
import type { UpstreamOrder } from '../../schemas/upstream-payments.ts';
import { adminOrder, adminOrderSchema } from './upstream-orders.ts';

export const ledgerOrderSchema = adminOrderSchema
  .extend({
    id: z.string().describe('Our order id (`ord_…`)'),
    externalId: z.string().nullable().describe('Our order id again (the upstream knows it as externalId)'),
    upstreamId: z.string().describe("The upstream's order id (what its payment page shows)"),
    status: z.enum(orderStatuses),
    amount: z.string().describe('The price asked'),
    currency: z.string(),
    updatedAt: z.string(),
    customerEmail: z.string().nullable(),
    reference: z
      .string()
      .nullable()
      .describe("The merchant's reference (a checkout token's or the product id)"),
    txHashes: z.array(z.string()).describe('Every payment transaction seen, by hash'),
    payments: z.array(
      z.object({
        id: z.string().nullable(),
        amount: z.string().nullable(),
        currency: z.string().nullable(),
        network: z.string().nullable(),
        status: z.string().nullable(),
        txHash: z.string().nullable(),
        confirmedAt: z.string().nullable(),
      }),
    ),
    acceptedBy: z
      .string()
      .nullable()
      .describe('Who accepted it as paid (an admin credential), when someone did'),
    tolerated: z
      .object({ shortfall: z.string(), tolerancePercent: z.string() })
      .nullable()
      .describe('Counted paid though short by `shortfall`, within PAYMENT_TOLERANCE_PERCENT'),
    rest: z
      .object({
        requestedBy: z.string(),
        at: z.string(),
        remaining: z.object({ amount: z.string(), currency: z.string() }),
        payBy: z.string().nullable(),
        payTo: z.object({
          url: z.string().optional(),
          address: z.string().optional(),
          network: z.string().optional(),
          memo: z.string().optional(),
        }),
      })
      .nullable()
      .describe('The rest asked of the shopper (request-rest)'),
    paymentsAfterFinal: z
      .array(
        z.object({
          amount: z.string(),
          currency: z.string(),
          txHashes: z.array(z.string()),
          at: z.string(),
          upstreamStatus: z.string(),
        }),
      )
      .describe(
        'Money that reached the order after it was finished: recorded and flagged, for you to settle',
      ),
  })
  .meta({ id: 'AdminOrder' });
export type LedgerOrder = z.output<typeof ledgerOrderSchema>;

/** What the order's detail adds of its refunds: each (refunds/refund.ts) and what they come to. */
export const ledgerOrderRefunds = {
  refunds: z.array(adminRefundSchema).describe('The refunds of this order, oldest first'),
  refunded: z
    .object({
      requested: z.string().describe('Every refund not cancelled'),
      sent: z.string().describe('The refunds recorded sent'),
      currency: z.string().nullable(),
    })
    .describe('What was refunded in total, in the crypto paid'),
};

export function ledgerRefunds(publicUrl: string, record: OrderRecord, refunds: readonly RefundRecord[]) {
  const currency = refunds[0]?.currency ?? record.paid?.currency ?? null;
  return {
    refunds: refunds.map((refund) => adminRefund(publicUrl, refund)),
    refunded: { ...refundedTotal(refunds, currency ?? ''), currency },
  };
}

export function ledgerOrder(record: OrderRecord, upstream?: UpstreamOrder): LedgerOrder {
  const up = upstream ? adminOrder(upstream) : undefined;
  const facts = record.payments ?? [];
  const payments: LedgerOrder['payments'] = facts.length
    ? facts.map((fact) => ({
        id: null,
        amount: fact.amount,
        currency: fact.crypto,
        network: fact.network,
        status: null,
        txHash: fact.txHash,
        confirmedAt: fact.confirmedAt,
      }))
    : (up?.payments ?? []).map((payment) => ({ ...payment, network: null }));
  const txHashes = [
    ...new Set(
      [...payments, ...(up?.payments ?? [])]
        .map((payment) => payment.txHash)
        .filter((hash): hash is string => Boolean(hash)),
    ),
  ];
  const email = record.customer?.email ?? up?.customer.email ?? null;
  return {
    id: record.id,
    externalId: record.id,
    upstreamId: record.upstreamId,
    type: up?.type ?? null,
    link: record.link,
    status: record.status,
    upstreamStatus: record.upstreamStatus,
    amount: record.product.price,
    currency: record.product.currency,
    purchase: {
      name: record.product.name,
      price: record.product.price,
      currency: record.product.currency,
      notes: up?.purchase.notes ?? null,
    },
    paid: record.paid ?? up?.paid ?? null,
    customer: {
      id: up?.customer.id ?? null,
      name: record.customer?.name ?? up?.customer.name ?? null,
      email,
      country: record.customer?.country ?? up?.customer.country ?? null,
    },
    customerEmail: email,
    reference: record.product.reference ?? record.product.id ?? null,
    txHashes,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    expiresAt: record.expiresAt ?? up?.expiresAt ?? null,
    payments,
    updates: up?.updates ?? [],
    acceptedBy: record.accepted?.by ?? null,
    tolerated: record.tolerated ?? null,
    rest: record.rest ?? null,
    paymentsAfterFinal: record.afterFinal ?? [],
  };
}
