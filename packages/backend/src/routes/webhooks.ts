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
 *
 * What an event changes is decided elsewhere: our orders in orders/ledger.ts, ramp orders in
 * orders/ramp-orders.ts, deposits in deposits/received.ts.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { depositReceived } from '../deposits/received.ts';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { errorResponses, jsonResponse, openApiRoutes, securedBy } from '../openapi.ts';
import type { OrderLedger } from '../orders/ledger.ts';
import type { RampOrders } from '../orders/ramp-orders.ts';
import { factsOfWebhook } from '../orders/upstream-facts.ts';
import { paymentsWebhook } from '../schemas/upstream-payments.ts';
import { rampCallback } from '../schemas/upstream-ramp.ts';
import { acceptedSecrets } from '../secrets/keyring.ts';
import { notePreviousSecret } from '../secrets/previous-use.ts';

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

/**
 * base64 HMAC-SHA256 of the raw body, compared in constant time with each secret accepted now (the current one
 * and, during a rotation, the previous ones: the upstream may sign with either until its side has changed).
 * Answers the secret it was signed with (every one is compared, whichever matches), or undefined.
 */
export function signedWith(
  secrets: string | readonly string[],
  raw: Uint8Array,
  header: string | undefined,
): string | undefined {
  if (!header) return undefined;
  const given = Buffer.from(header.trim());
  let found: string | undefined;
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const expected = Buffer.from(createHmac('sha256', secret).update(raw).digest('base64'));
    if (given.length === expected.length && timingSafeEqual(given, expected)) found ??= secret;
  }
  return found;
}

function parseJson(raw: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw new AppError('BAD_REQUEST', 'The body is not JSON.');
  }
}

const sha256 = (raw: Uint8Array) => createHash('sha256').update(raw).digest('hex');

export function webhookRoutes(deps: AppDeps, ledger: OrderLedger, rampOrders: RampOrders) {
  const { config, store, clock, metrics } = deps;
  /** Counts what came, by source and outcome: verified (applied or ignored), duplicate, refused, invalid. */
  const counted = (source: 'payments' | 'ramp', outcome: Outcome) => {
    metrics.webhookReceived(source, outcome.duplicate ? 'duplicate' : 'verified');
    return outcome;
  };
  const refused = (source: 'payments' | 'ramp') => {
    metrics.webhookReceived(source, 'refused');
    return new AppError('UNAUTHORIZED', 'The webhook signature is missing or wrong.');
  };
  const unreadable = (source: 'payments' | 'ramp', raw: Uint8Array) => {
    try {
      return parseJson(raw);
    } catch (error) {
      metrics.webhookReceived(source, 'invalid');
      throw error;
    }
  };

  /**
   * Claims the event, runs `apply`, releases the claim if it throws. The answer is `apply`'s error (the sender
   * retries) even when the release fails too, the store gone meanwhile: that claim then stays, and answers the
   * redelivery as a duplicate.
   */
  async function once(key: string, apply: () => Promise<Outcome>): Promise<Outcome> {
    const claimed = await store.setIfAbsent('webhooks', key, {
      receivedAt: new Date(clock.now()).toISOString(),
    });
    if (!claimed) return { duplicate: true };
    try {
      return await apply();
    } catch (error) {
      await store.delete('webhooks', key).catch(() => undefined);
      throw error;
    }
  }

  const rawBody = async (c: { req: { arrayBuffer(): Promise<ArrayBuffer> } }) =>
    new Uint8Array(await c.req.arrayBuffer());

  return openApiRoutes()
    .openapi(
      webhookRoute('/payments', 'Payments API events (x-swapped-signature; both payload casings)'),
      async (c) => {
        const raw = await rawBody(c);
        const secrets = acceptedSecrets(config.secrets.payWebhook, clock.now());
        const secret = signedWith(secrets, raw, c.req.header('x-swapped-signature'));
        if (secret === undefined) throw refused('payments');
        notePreviousSecret(
          metrics,
          'PAY_WEBHOOK_SECRET_PREVIOUS',
          config.secrets.payWebhook,
          secret,
          'a payments webhook',
        );
        const parsed = paymentsWebhook.safeParse(unreadable('payments', raw));
        if (!parsed.success) {
          metrics.webhookReceived('payments', 'invalid');
          throw new AppError('BAD_REQUEST', 'The webhook payload is not an object.');
        }
        const event = parsed.data;
        const outcome = await once(`payments:${event.eventId ?? sha256(raw)}`, async () => {
          const facts = factsOfWebhook(event);
          if (!facts || (!event.orderId && !event.externalId)) return { ignored: true };
          const record = await ledger.locate(event.externalId, event.orderId);
          if (record) {
            await ledger.apply(record.id, facts, 'webhook');
            return {};
          }
          return (await depositReceived(deps, event)) ? {} : { ignored: true };
        });
        return c.json(answer(counted('payments', outcome)), 200);
      },
    )

    .openapi(webhookRoute('/ramp', 'Ramp order callbacks (`signature` header)'), async (c) => {
      const raw = await rawBody(c);
      const secrets = acceptedSecrets(config.secrets.rampSecret, clock.now());
      const secret = signedWith(secrets, raw, c.req.header('signature'));
      if (secret === undefined) throw refused('ramp');
      notePreviousSecret(
        metrics,
        'RAMP_SECRET_KEY_PREVIOUS',
        config.secrets.rampSecret,
        secret,
        'a ramp callback',
      );
      const parsed = rampCallback.safeParse(unreadable('ramp', raw));
      if (!parsed.success) return c.json(answer(counted('ramp', { ignored: true })), 200);
      const event = parsed.data;
      const outcome = await once(`ramp:${sha256(raw)}`, async () =>
        (await rampOrders.apply(event)) ? {} : { ignored: true },
      );
      return c.json(answer(counted('ramp', outcome)), 200);
    });
}
