/** What of an order's view needs the settlement's part (./settlement/): the rest still due, or anything to say. */
import type { OrderView } from '../../api/types.ts';

/** The rest still due of `view`, with its crypto, when the order is underpaid and the backend can tell it. */
export const restOf = (view: OrderView | undefined): { amount: string; currency: string } | undefined =>
  view?.status === 'underpaid' && view.settlement?.remaining
    ? { amount: view.settlement.remaining, currency: view.settlement.due.currency }
    : undefined;

/** Whether `view` has money to tell the shopper of: a rest to pay, an excess, a refund to claim. */
export const hasSettlement = (view: OrderView | undefined): boolean =>
  !!restOf(view) ||
  ((view?.status === 'overpaid' || view?.status === 'paid_late') && !!view.settlement?.excess) ||
  !!view?.refunds?.length;
