/**
 * What the shopper's view of an order says of its money once the crypto is known (`settlement`): what is due and
 * what arrived in that crypto, the rest still to pay and until when, or what arrived beyond what was due. Pure,
 * from the ledger's record (balance.ts); how to pay the rest (`payTo`) is set where the merchant asks for it.
 */
import { z } from 'zod';
import { decimal, plainString } from '../money.ts';
import { type BalanceInput, balanceOf, symbolOf } from './balance.ts';
import { isFinal, type OrderStatus } from './status.ts';

const amountSchema = z.object({ amount: z.string(), currency: z.string() });

export const settlementSchema = z
  .object({
    due: amountSchema.describe('what is due, in the crypto the payer picked'),
    received: amountSchema.describe('what arrived so far, in that crypto'),
    remaining: z.string().optional().describe('the shortfall in that crypto, when underpaid'),
    excess: z.string().optional().describe('what arrived beyond what was due, when overpaid'),
    payBy: z
      .string()
      .optional()
      .describe('ISO time the shopper can still pay the rest until, while the order is not final'),
    payTo: z
      .object({
        url: z.string().optional(),
        address: z.string().optional(),
        network: z.string().optional(),
        memo: z.string().optional(),
      })
      .optional()
      .describe("how to pay the rest when the merchant asked for it; absent: the order's own payment page"),
  })
  .meta({
    id: 'OrderSettlement',
    description:
      'the money in the crypto paid, once known: what is due, what arrived, the rest or the excess',
  });
export type Settlement = z.output<typeof settlementSchema>;

/** The settlement of `record`, or undefined while the crypto due is not known (or arrived in another one). */
export function settlementOf(
  record: BalanceInput & {
    status: OrderStatus;
    expiresAt: string | null;
    /** The rest the merchant asked for (orders/order.ts `RestRequest`): until when, and how to pay it. */
    rest?: { payBy: string | null; payTo: NonNullable<Settlement['payTo']> } | undefined;
  },
): Settlement | undefined {
  const { due, shortfall, excess } = balanceOf(record);
  if (!due) return undefined;
  // As plain a decimal as the rest and the excess (`1.250000` as `1.25`), whatever digits the upstream sent.
  const received = record.paid
    ? { amount: plainString(decimal(record.paid.amount)), currency: record.paid.currency }
    : { amount: '0', currency: due.currency };
  // Something arrived in another crypto than the one quoted: nothing here can say what is missing.
  if (record.paid && symbolOf(record.paid.currency) !== symbolOf(due.currency)) return undefined;
  const short = record.paid && shortfall !== null;
  // The rest's own time once the merchant asked for it (orders/payment-policy.ts payByOf), else the order's expiry.
  const payBy = record.rest?.payBy ?? record.expiresAt;
  return {
    due,
    received,
    ...(short ? { remaining: shortfall } : {}),
    ...(excess !== null ? { excess } : {}),
    ...(short && !isFinal(record.status) && payBy ? { payBy } : {}),
    ...(short && record.rest && record.status === 'underpaid' ? { payTo: record.rest.payTo } : {}),
  };
}
