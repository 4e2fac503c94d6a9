/**
 * What the shopper's order view says of the money (`settlement`, shared contract of issue 42): what is due and
 * what arrived in the crypto paid, the rest or the excess, and, once the merchant asked for the rest, until when
 * and how to pay it. Pure, from the ledger's record.
 */
import { balanceOf } from './balance.ts';
import type { OrderRecord } from './order.ts';
import { payByOf } from './payment-policy.ts';

export interface Settlement {
  due: { amount: string; currency: string };
  received: { amount: string; currency: string };
  remaining?: string;
  excess?: string;
  payBy?: string;
  payTo?: { url?: string; address?: string; network?: string; memo?: string };
}

export function settlementOf(record: OrderRecord): Settlement | undefined {
  const { due, shortfall, excess } = balanceOf(record);
  if (!due || !record.paid) return undefined;
  const payBy = record.status === 'underpaid' ? payByOf(record) : null;
  return {
    due,
    received: record.paid,
    ...(shortfall ? { remaining: shortfall } : {}),
    ...(excess ? { excess } : {}),
    ...(payBy ? { payBy } : {}),
    ...(record.rest && record.status === 'underpaid' ? { payTo: record.rest.payTo } : {}),
  };
}
