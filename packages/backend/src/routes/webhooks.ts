/**
 * Webhooks from the upstream: payments (`x-swapped-signature`, either payload casing) and ramp callbacks
 * (`signature`). The HMAC is checked over the raw bytes, in constant time, before anything is parsed.
 *
 * Each event is applied once: its dedupe key (the event id when there is one, else the sha256 of the raw body)
 * is claimed with `setIfAbsent` before applying and released if applying fails, so the upstream's retry runs
 * it again. Answers: 401 bad signature; 200 `{ok:true}` applied, `{ok:true, duplicate:true}` a repeat,
 * `{ok:true, ignored:true}` an order this backend does not know or an event without an order status. Unknown
 * orders get 200, not 404: a 404 makes the upstream retry for a day an event we will never be able to use
 * (payment links made in the dashboard, deposits to payment routes).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { depositEvents, type RampOrderFacts, rampEvents } from '../events/fulfilment-events.ts';
import { createKeyedLock } from '../keyed-lock.ts';
import { upstreamDecimal } from '../money.ts';
import { errorResponses, jsonResponse, openApiRoutes, securedBy } from '../openapi.ts';
import {
  createOrderLedger,
  type OrderLedger,
  sameUpstreamOrder,
  type UpstreamFacts,
} from '../order-ledger.ts';
import { isRampProgress, mapUpstreamStatus } from '../order-status.ts';

/** What a webhook is answered (API.md "Webhooks"). */
export const webhookAnswerSchema = z.object({
  ok: z.literal(true),
  duplicate: z.literal(true).optional().describe('An event already applied'),
  ignored: z.literal(true).optional().describe('An order this backend did not create, or no order status'),
});

type WebhookAnswer = z.output<typeof webhookAnswerSchema>;
type Outcome = Omit<WebhookAnswer, 'ok'>;
const answer = (outcome: Outcome): WebhookAnswer => ({ ok: true, ...outcome });

/** The body is read raw (the signature is over its bytes), so it is described, not validated, here. */
const webhookRoute = <P extends string>(path: P, summary: string) =>
  createRoute({
    method: 'post',
    path,
    tags: ['Webhooks'],
    summary,
    security: securedBy('webhookSignature'),
    request: {
      body: { required: true, content: { 'application/json': { schema: { type: 'object' as const } } } },
    },
    responses: {
      200: jsonResponse(webhookAnswerSchema, 'Applied (or already applied)'),
      ...errorResponses('UNAUTHORIZED', 'BAD_REQUEST'),
    },
  });

/** base64 HMAC-SHA256 of the raw body, compared in constant time. */
export function signatureValid(secret: string, raw: Uint8Array, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(raw).digest('base64'));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const text = z.string().nullish();
const amount = upstreamDecimal.nullish();

/** Both casings (facts.md §6), normalised to one shape. */
const paymentsEvent = z
  .looseObject({
    id: text,
    eventId: text,
    event_id: text,
    eventType: text,
    event_type: text,
    orderId: text,
    order_id: text,
    orderStatus: text,
    order_status: text,
    externalId: text,
    external_order_id: text,
    external_id: text,
    orderCrypto: text,
    order_crypto: text,
    orderCryptoAmount: amount,
    order_crypto_amount: amount,
    customerId: text,
    external_customer_id: text,
  })
  .transform((e) => ({
    eventId: e.eventId ?? e.event_id ?? e.id ?? null,
    eventType: e.eventType ?? e.event_type ?? null,
    // Older payloads prefix order ids with `SP-`: kept as they came, compared with sameUpstreamOrder.
    orderId: e.orderId ?? e.order_id ?? null,
    orderStatus: e.orderStatus ?? e.order_status ?? null,
    externalId: e.externalId ?? e.external_order_id ?? e.external_id ?? null,
    crypto: e.orderCrypto ?? e.order_crypto ?? null,
    cryptoAmount: e.orderCryptoAmount ?? e.order_crypto_amount ?? null,
    customerId: e.customerId ?? e.external_customer_id ?? null,
  }));

const rampEvent = z.looseObject({
  order_id: z.string().min(1),
  order_status: z.string().min(1),
  order_type: text,
  order_crypto: text,
  order_crypto_amount: amount,
  order_crypto_address: text,
  network: text,
  transaction_id: text,
  external_customer_id: text,
  order_amount_eur: amount,
  order_amount_eur_plus_fees: amount,
  order_amount_usd: amount,
  order_amount_usd_plus_fees: amount,
});

/** What we keep of a ramp order reported by callbacks (collection `ramp-orders`, keyed by its order_id). */
export interface RampOrderRecord extends RampOrderFacts {
  history: Array<{ status: string; at: string }>;
  createdAt: string;
}

function parseJson(raw: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw new AppError('BAD_REQUEST', 'The body is not JSON.');
  }
}

export function webhookRoutes(deps: AppDeps, ledger: OrderLedger = createOrderLedger(deps)) {
  const { config, store, clock } = deps;
  const rampLock = createKeyedLock();
  const iso = () => new Date(clock.now()).toISOString();

  /** Claims the event, runs `apply`, releases the claim if it throws. */
  async function once(key: string, apply: () => Promise<Outcome>): Promise<Outcome> {
    const claimed = await store.setIfAbsent('webhooks', key, { receivedAt: iso() });
    if (!claimed) return { duplicate: true };
    try {
      return await apply();
    } catch (error) {
      await store.delete('webhooks', key);
      throw error;
    }
  }

  /**
   * A payment into a customer's permanent address: the upstream reports it as an order of the route, whose
   * `externalId` is the shop's customer id. Told to the merchant as `deposit.received`, once per upstream order.
   */
  async function deposited(event: z.output<typeof paymentsEvent>): Promise<Outcome> {
    const customerId = event.externalId ?? event.customerId;
    const paid = mapUpstreamStatus(event.orderStatus ?? '');
    if (!customerId || !event.orderId || !event.crypto || !event.cryptoAmount) return { ignored: true };
    if (paid !== 'paid' && paid !== 'overpaid' && paid !== 'underpaid') return { ignored: true };
    const routes = await store.values<{ customerId: string; chain: string; address: string }>('routes');
    const route = routes.find((r) => r.customerId === customerId);
    if (!route) return { ignored: true };
    await deps.outbox.record(
      depositEvents({
        customerId,
        chain: route.chain,
        address: route.address,
        upstreamOrderId: event.orderId,
        crypto: event.crypto,
        amount: event.cryptoAmount,
        status: paid,
        receivedAt: iso(),
      }),
      iso(),
    );
    return {};
  }

  const rawBody = async (c: { req: { arrayBuffer(): Promise<ArrayBuffer> } }) =>
    new Uint8Array(await c.req.arrayBuffer());

  return openApiRoutes()
    .openapi(
      webhookRoute('/payments', 'Payments API events (x-swapped-signature; both payload casings)'),
      async (c) => {
        const raw = await rawBody(c);
        if (!signatureValid(config.payments.webhookSecret, raw, c.req.header('x-swapped-signature'))) {
          throw new AppError('UNAUTHORIZED', 'The webhook signature is missing or wrong.');
        }
        const parsed = paymentsEvent.safeParse(parseJson(raw));
        if (!parsed.success) throw new AppError('BAD_REQUEST', 'The webhook payload is not an object.');
        const event = parsed.data;
        const key = `payments:${event.eventId ?? createHash('sha256').update(raw).digest('hex')}`;
        const outcome = await once(key, async () => {
          if (!event.orderStatus || (!event.orderId && !event.externalId)) return { ignored: true };
          // Our reference first (we set it as externalId), checked against the upstream id when both are given.
          // An order still being created is waited for: the upstream can be faster with its webhook than with
          // its answer to our create call.
          let record = event.externalId ? await ledger.afterCreation(event.externalId) : undefined;
          if (record && event.orderId && !sameUpstreamOrder(record.upstreamId, event.orderId))
            record = undefined;
          if (!record && event.orderId) record = await ledger.findByUpstreamId(event.orderId);
          if (!record) return deposited(event);
          const facts: UpstreamFacts = {
            upstreamStatus: event.orderStatus,
            paid:
              event.crypto && event.cryptoAmount
                ? { amount: event.cryptoAmount, currency: event.crypto }
                : null,
          };
          await ledger.apply(record.id, facts, 'webhook');
          return {};
        });
        return c.json(answer(outcome), 200);
      },
    )

    .openapi(webhookRoute('/ramp', 'Ramp order callbacks (`signature` header)'), async (c) => {
      const raw = await rawBody(c);
      if (!signatureValid(config.ramp.secretKey, raw, c.req.header('signature'))) {
        throw new AppError('UNAUTHORIZED', 'The webhook signature is missing or wrong.');
      }
      const parsed = rampEvent.safeParse(parseJson(raw));
      if (!parsed.success) return c.json(answer({ ignored: true }), 200);
      const event = parsed.data;
      const key = `ramp:${createHash('sha256').update(raw).digest('hex')}`;
      const outcome = await once(key, () =>
        rampLock.run(event.order_id, () =>
          store.transaction(async (tx) => {
            const current = await tx.get<RampOrderRecord>('ramp-orders', event.order_id);
            if (!isRampProgress(current?.status, event.order_status)) return { ignored: true };
            const at = iso();
            const next: RampOrderRecord = {
              orderId: event.order_id,
              status: event.order_status,
              type: event.order_type ?? current?.type ?? null,
              crypto: event.order_crypto ?? current?.crypto ?? null,
              cryptoAmount: event.order_crypto_amount ?? current?.cryptoAmount ?? null,
              network: event.network ?? current?.network ?? null,
              address: event.order_crypto_address ?? current?.address ?? null,
              transactionId: event.transaction_id ?? current?.transactionId ?? null,
              externalCustomerId: event.external_customer_id ?? current?.externalCustomerId ?? null,
              amountEur: event.order_amount_eur ?? current?.amountEur ?? null,
              history: [...(current?.history ?? []), { status: event.order_status, at }],
              createdAt: current?.createdAt ?? at,
              updatedAt: at,
            };
            await deps.outbox.record(rampEvents(current, next), at, tx);
            await tx.set('ramp-orders', event.order_id, next);
            return {};
          }),
        ),
      );
      return c.json(answer(outcome), 200);
    });
}
