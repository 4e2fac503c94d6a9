/**
 * `/control/orders`: drive payment orders without a browser (tests, demos): pay, expire, cancel, and deposits to
 * payment routes. Unauthenticated, like the other controls; answers in the controls' `{success, data}` envelope.
 */
import { zValidator } from '@hono/zod-validator';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { rampFail as controlFail } from '../envelope.ts';
import type { SandboxState } from '../state.ts';
import { cryptoCode } from './currencies.ts';
import { DECIMAL, failureOf, issuesMessage } from './failures.ts';
import { LedgerError, ledgerOf } from './ledger.ts';
import type { OrderRecord } from './order.ts';
import {
  cancel as cancelOrder,
  expire as expireOrder,
  provideCustomer,
  selectCurrency,
} from './order-transitions.ts';
import { receivePayment } from './payment-receipts.ts';
import { TransitionError } from './transition.ts';

const paySchema = z.object({
  kind: z.enum(['exact', 'underpaid', 'overpaid']).default('exact'),
  /** Crypto code (`USDC_BASE`, `ETH`, `usdt_tron`); switches the quote while nothing is paid yet. */
  currency: z.string().optional(),
  /** Exact crypto amount to send, overriding `kind`. */
  amount: z.string().regex(DECIMAL, 'must be a decimal string').optional(),
});

const depositSchema = z.object({
  /** The route paid into: its id, or its address (and memo, on memo chains) as the customer sees it. */
  routeId: z.string().min(1).optional(),
  address: z.string().min(1).optional(),
  memo: z.string().min(1).optional(),
  currency: z.string().optional(),
  amount: z.string().regex(DECIMAL, 'must be a decimal string').optional(),
});

/** A payer to stand in when a control pays an order nobody identified for. */
const STAND_IN_PAYER = { name: 'Sandbox Payer', email: 'payer@example.com' };

function resolveCode(input: string | undefined): string | undefined {
  if (input === undefined) return undefined;
  const code = cryptoCode(input);
  if (!code) throw new LedgerError(422, `Unsupported currency ${input}`);
  return code;
}

export function orderControls(state: SandboxState) {
  const ledger = ledgerOf(state);
  const ok = (c: Context, record: OrderRecord) => c.json({ success: true, data: { order: record.order } });
  const jsonBody = <T extends z.ZodType>(schema: T) =>
    zValidator('json', schema, (r, c) =>
      r.success ? undefined : controlFail(c, 400, issuesMessage(r.error)),
    );

  return new Hono()
    .post('/route-deposits', jsonBody(depositSchema), (c) => {
      const body = c.req.valid('json');
      const routeId = body.routeId ?? (body.address ? ledger.routeIdAt(body.address, body.memo) : undefined);
      if (!routeId) return controlFail(c, 400, 'give routeId, or the address (and memo) paid into');
      return ok(c, ledger.deposit(routeId, resolveCode(body.currency), body.amount));
    })
    .get('/:id', (c) => {
      const record = ledger.get(c.req.param('id'));
      return record ? ok(c, record) : controlFail(c, 404, `Order ${c.req.param('id')} not found`);
    })
    .post('/:id/pay', jsonBody(paySchema), (c) => {
      const id = c.req.param('id');
      const body = c.req.valid('json');
      const wanted = resolveCode(body.currency);
      // Walk the order to AWAITING_PAYMENT as a payer would, then pay.
      let record = ledger.get(id);
      if (!record) throw new LedgerError(404, `Order ${id} not found`);
      if (record.order.status === 'PENDING_USER_CREATION') {
        const payer = {
          name: record.payer.name ?? STAND_IN_PAYER.name,
          email: record.payer.email ?? STAND_IN_PAYER.email,
        };
        record = ledger.apply(id, (r, ctx) => provideCustomer(r, payer, ctx));
      }
      const switching =
        record.order.status === 'AWAITING_PAYMENT' && wanted !== undefined && wanted !== record.payCode;
      if (record.order.status === 'PENDING_CURRENCY_SELECTION' || switching) {
        const code = wanted ?? record.payCode;
        record = ledger.apply(id, (r, ctx) => selectCurrency(r, code, ctx));
      } else if (wanted !== undefined && wanted !== record.payCode) {
        throw new TransitionError(`Order ${id} is being paid in ${record.payCode}; cannot pay in ${wanted}`);
      }
      return ok(
        c,
        ledger.apply(id, (r, ctx) =>
          receivePayment(r, { kind: body.kind, amount: body.amount, late: state.settings.latePayments }, ctx),
        ),
      );
    })
    .post('/:id/expire', (c) => ok(c, ledger.apply(c.req.param('id'), expireOrder)))
    .post('/:id/cancel', (c) => ok(c, ledger.apply(c.req.param('id'), cancelOrder)))
    .onError((error, c) => {
      const { status, message } = failureOf(error);
      return controlFail(c, status, message);
    });
}
