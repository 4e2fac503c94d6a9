/**
 * The hosted payment page (`/pay/:orderId`), the upstream's `{pay_url}`: server-rendered, inline CSS and JS only,
 * embeddable in an iframe. Every action is a same-frame form POST answered with a 303 back to the page, so it
 * works in a frame without cookies or cross-origin requests. All URLs are relative, so the page works wherever
 * the sandbox is mounted.
 *
 * To the embedding page it posts `{type: 'SWAPPED_ORDER_STATUS', orderId, status}` on every load (the page
 * reloads itself when the status changes), and `{type: 'SWAPPED_RESIZE', height}` whenever its content's height
 * changes, only to the origin of `metadata.redirectUrl`, never `'*'`.
 *
 * This file holds the routes; the HTML is view.ts, its CSS styles.ts and its browser script script.ts.
 */
import { randomBytes } from 'node:crypto';
import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import type { SandboxState } from '../../state.ts';
import { cryptoCode } from '../currencies.ts';
import { LedgerError, ledgerOf } from '../ledger.ts';
import type { OrderRecord } from '../order.ts';
import { expire, openPage, provideCustomer, selectCurrency } from '../order-transitions.ts';
import { receivePayment } from '../payment-receipts.ts';
import { TransitionError } from '../transition.ts';
import { notFoundPage, render, type View } from './view.ts';

/**
 * Where status messages may go: `parentOrigin` (query) when it equals the origin of metadata.redirectUrl,
 * otherwise that origin; without a redirectUrl there is no trusted origin and nothing is posted.
 */
export function messageTargetOrigin(redirectUrl: string | undefined, parentOrigin: string | undefined) {
  const expected = originOf(redirectUrl);
  if (!expected) return undefined;
  return parentOrigin === expected ? parentOrigin : expected;
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

const customerSchema = z.object({ name: z.string().trim().min(1).max(200), email: z.email().max(200) });
const currencySchema = z.object({ currency: z.string() });
const simulateSchema = z.object({ kind: z.enum(['exact', 'underpaid', 'overpaid', 'expire']) });

export function payPage(state: SandboxState) {
  const ledger = ledgerOf(state);

  const queryOf = (c: Context) => {
    const parentOrigin = c.req.query('parentOrigin');
    return parentOrigin ? `?${new URLSearchParams({ parentOrigin })}` : '';
  };

  const show = (
    c: Context,
    record: OrderRecord,
    status: ContentfulStatusCode = 200,
    extra: Pick<View, 'error' | 'values'> = {},
  ) => {
    const nonce = randomBytes(16).toString('base64');
    c.header(
      'Content-Security-Policy',
      [
        "default-src 'none'",
        `script-src 'nonce-${nonce}'`,
        `style-src 'nonce-${nonce}'`,
        'img-src http: https: data:',
        "connect-src 'self'",
        "form-action 'self'",
        "base-uri 'none'",
        // Embeddable anywhere, like the real page (merchants frame it on their own sites).
        'frame-ancestors *',
      ].join('; '),
    );
    c.header('Cache-Control', 'no-store');
    const query = queryOf(c);
    const view: View = {
      record,
      now: state.now(),
      nonce,
      up: c.req.path.endsWith(`/${record.order.id}`) ? '' : '../',
      query,
      targetOrigin: messageTargetOrigin(record.order.metadata['redirectUrl'], c.req.query('parentOrigin')),
      ...extra,
    };
    return c.html(render(view), status);
  };

  /** Post/redirect/get: back to the page (relative to `/pay/:id/<action>`), keeping the query. */
  const back = (c: Context, id: string) => c.redirect(`../${id}${queryOf(c)}`, 303);

  const form = async (c: Context) => {
    const body = await c.req.parseBody();
    return Object.fromEntries(Object.entries(body).filter(([, v]) => typeof v === 'string')) as Record<
      string,
      string
    >;
  };

  /** A form action on an existing order: unknown ids get the 404 page; the handler gets the order and fields. */
  const action =
    (
      handle: (
        c: Context,
        id: string,
        record: OrderRecord,
        values: Record<string, string>,
      ) => Response | Promise<Response>,
    ) =>
    async (c: Context) => {
      const id = c.req.param('id') ?? '';
      const record = ledger.get(id);
      if (!record) return c.html(notFoundPage(id), 404);
      return handle(c, id, record, await form(c));
    };

  return new Hono()
    .get('/:id', (c) => {
      const id = c.req.param('id');
      if (!ledger.get(id)) return c.html(notFoundPage(id), 404);
      return show(c, ledger.apply(id, openPage));
    })
    .get('/:id/status', (c) => {
      const record = ledger.get(c.req.param('id'));
      if (!record) return c.json({ success: false, message: 'Order not found' }, 404);
      const { order } = record;
      c.header('Cache-Control', 'no-store');
      return c.json({ orderId: order.id, status: order.status, expiresAt: order.expiresAt });
    })
    .post(
      '/:id/customer',
      action((c, id, record, values) => {
        const parsed = customerSchema.safeParse(values);
        if (!parsed.success) {
          const error = 'Enter your name and a valid email address.';
          return show(c, record, 422, {
            error,
            values: { name: values['name'] ?? '', email: values['email'] ?? '' },
          });
        }
        ledger.apply(id, (r, ctx) => provideCustomer(r, parsed.data, ctx));
        return back(c, id);
      }),
    )
    .post(
      '/:id/currency',
      action((c, id, record, values) => {
        const parsed = currencySchema.safeParse(values);
        const code = parsed.success ? cryptoCode(parsed.data.currency) : undefined;
        if (!code) return show(c, record, 422, { error: 'Choose one of the listed currencies.' });
        ledger.apply(id, (r, ctx) => selectCurrency(r, code, ctx));
        return back(c, id);
      }),
    )
    .post(
      '/:id/simulate',
      action((c, id, record, values) => {
        const parsed = simulateSchema.safeParse(values);
        if (!parsed.success) return show(c, record, 422, { error: 'Unknown simulation.' });
        const kind = parsed.data.kind;
        if (kind === 'expire') ledger.apply(id, expire);
        else
          ledger.apply(id, (r, ctx) => receivePayment(r, { kind, late: state.settings.latePayments }, ctx));
        return back(c, id);
      }),
    )
    .onError((error, c) => {
      const id = c.req.param('id') ?? '';
      const record = id ? ledger.get(id) : undefined;
      if (record && (error instanceof TransitionError || error instanceof LedgerError)) {
        return show(c, record, 409, { error: error.message });
      }
      return c.text('Internal server error', 500);
    });
}
