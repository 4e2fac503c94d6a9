/**
 * Delivers the outbox: each due delivery is POSTed to its MERCHANT_WEBHOOK_URL signed per Standard Webhooks
 * (`webhook-id` = the event's stable id, `webhook-timestamp`, `webhook-signature`), or handed to the in-process
 * `onEvent` hook. A 2xx is delivered; 410 stops; anything else (another status, a timeout, a refused connection,
 * an error thrown by the hook) is retried with exponential backoff and jitter until the retry window (24 h by
 * default) has passed. Runs beside the shopper's requests, never in their way.
 */
import { Webhook } from 'standardwebhooks';
import type { Clock } from '../clock.ts';
import { type LogFields, logger } from '../logger.ts';
import { loggableUrl } from '../middleware/access-log.ts';
import { createOutageLog } from '../outage-log.ts';
import { acceptedSecrets, type Keyring } from '../secrets/keyring.ts';
import type { ResolvedTarget } from './endpoints.ts';
import type { OnEvent } from './fulfilment-events.ts';
import { type AttemptOutcome, type Delivery, hookTarget, type Outbox, type OutboxEntry } from './outbox.ts';

export interface DeliveryOptions {
  outbox: Outbox;
  clock: Clock;
  /**
   * The Standard Webhooks secrets (`whsec_…`) the receiver verifies with: during a rotation each event carries
   * one `v1,` signature per accepted secret, so a receiver on the old or the new secret verifies it.
   */
  secrets: Keyring | undefined;
  onEvent?: OnEvent | undefined;
  /**
   * Where a delivery's target goes (events/endpoints.ts): its URL, its secrets, whether it is paused. Without it,
   * a target is a URL signed with `secrets`.
   */
  resolve?: (target: string) => Promise<ResolvedTarget | undefined>;
  /** How long a receiver may take (default 10 s). */
  timeoutMs?: number;
  /** How long an event is retried (default 24 h, the Standard Webhooks norm). */
  retryWindowMs?: number;
  /** The first retry's delay; each next one doubles, up to `maxDelayMs` (defaults 5 s and 1 h). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** How often the worker looks for due deliveries (default 1 s). */
  pollMs?: number;
  fetch?: typeof fetch;
  random?: () => number;
  log?: (line: string, fields?: LogFields) => void;
  /** Where the line saying the database is back after failed passes goes (default the logger's info). */
  logRecovery?: (line: string, fields?: LogFields) => void;
  /** Told of each attempt's outcome (the metrics). */
  observe?: (target: 'webhook' | 'hook', outcome: 'delivered' | 'retry' | 'failed') => void;
}

/** The delay before attempt `attempts + 1`: base × 2^(attempts − 1), capped, times a jitter in [0.5, 1.5). */
export function backoffMs(attempts: number, baseMs: number, maxMs: number, random: () => number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1)) * (0.5 + random());
}

/**
 * The headers of one delivery of `body` (the event's JSON) per Standard Webhooks: `webhook-id` (the event's stable
 * id), `webhook-timestamp`, and one `v1,` signature per secret accepted at `at`, space-separated as the standard
 * allows (a receiver on the old or the new secret verifies it during a rotation). The worker and `listen` sign alike.
 */
export function webhookHeaders(
  keyring: Keyring,
  id: string,
  at: Date,
  body: string,
  signerOf: (secret: string) => Webhook = (secret) => new Webhook(secret),
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'crypto-checkout-webhooks',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': acceptedSecrets(keyring, at.getTime())
      .map((secret) => signerOf(secret).sign(id, at, body))
      .join(' '),
  };
}

/** Characters of a receiver's answer kept with an attempt. */
const excerptLength = 300;

/** The start of an answer's body (read no further), or null when it had none. */
async function excerptOf(response: Response): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return null;
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < excerptLength) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // an answer cut off: what came is the excerpt
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text ? text.slice(0, excerptLength) : null;
}

export function createDeliveryWorker(options: DeliveryOptions) {
  const { outbox, clock } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retryWindowMs = options.retryWindowMs ?? 24 * 60 * 60 * 1000;
  const baseDelayMs = options.baseDelayMs ?? 5000;
  const maxDelayMs = options.maxDelayMs ?? 60 * 60 * 1000;
  const doFetch = options.fetch ?? fetch;
  const random = options.random ?? Math.random;
  const log = options.log ?? logger.warn;
  // A pass fails only on the store (a delivery's own failure is recorded, not thrown): while the database is away
  // that is every poll, said at once and then at growing intervals, and once more when it is back.
  const storeOutage = createOutageLog({
    subject: 'the database',
    prefix: '[events]',
    clock,
    warn: log,
    info: options.logRecovery,
  });
  const signers = new Map<string, Webhook>();
  const signerOf = (secret: string) => {
    let signer = signers.get(secret);
    if (!signer) {
      signer = new Webhook(secret);
      signers.set(secret, signer);
    }
    return signer;
  };
  const iso = (ms = clock.now()) => new Date(ms).toISOString();

  async function send(entry: OutboxEntry, delivery: Delivery): Promise<AttemptOutcome> {
    const failed = (status: number | null, error: string): AttemptOutcome => {
      const retryAt = clock.now() + backoffMs(delivery.attempts + 1, baseDelayMs, maxDelayMs, random);
      const giveUp = status === 410 || retryAt > Date.parse(entry.createdAt) + retryWindowMs;
      return { ok: false, status, error, giveUp, nextAttemptAt: giveUp ? null : iso(retryAt) };
    };
    if (delivery.target === hookTarget) {
      try {
        await options.onEvent?.(entry.event);
        return { ok: true, status: null, error: null, nextAttemptAt: null, giveUp: false };
      } catch (error) {
        return failed(null, `onEvent threw: ${(error as Error).message}`);
      }
    }
    const resolved = options.resolve
      ? await options.resolve(delivery.target)
      : { endpointId: '', url: delivery.target, secrets: options.secrets, enabled: true };
    const given = (error: string): AttemptOutcome => ({
      ok: false,
      status: null,
      error,
      nextAttemptAt: null,
      giveUp: true,
    });
    if (!resolved) return given('the endpoint was deleted');
    if (!resolved.enabled) return given('the endpoint is paused');
    if (!resolved.secrets) return failed(null, 'MERCHANT_WEBHOOK_SECRET is not set');
    const body = JSON.stringify(entry.event);
    const sentAt = new Date(clock.now());
    try {
      const response = await doFetch(resolved.url, {
        method: 'POST',
        headers: webhookHeaders(resolved.secrets, entry.event.id, sentAt, body, signerOf),
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      const responseExcerpt = await excerptOf(response);
      if (response.ok)
        return {
          ok: true,
          status: response.status,
          error: null,
          nextAttemptAt: null,
          giveUp: false,
          responseExcerpt,
        };
      return { ...failed(response.status, `the receiver answered ${response.status}`), responseExcerpt };
    } catch (error) {
      const name = (error as Error).name;
      return failed(
        null,
        name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'the receiver is unreachable',
      );
    }
  }

  let running: Promise<number> | undefined;
  let timer: NodeJS.Timeout | undefined;
  // For readiness (health/checks.ts): when the last pass ended, and when the one running began (monotonic).
  let lastPassEndedAt = performance.now();
  let passStartedAt: number | undefined;
  // Deliveries being sent now (a forced shutdown says how many it cut).
  let sending = 0;

  const worker = {
    /** One pass: sends what is due now; resolves to how many deliveries were attempted. Passes never overlap. */
    tick(): Promise<number> {
      running ??= (async () => {
        passStartedAt = performance.now();
        try {
          const due = await outbox.claimDue(iso(), 50, timeoutMs * 2);
          await Promise.all(
            due.map(async ({ entry, delivery }) => {
              sending += 1;
              let outcome: AttemptOutcome;
              try {
                outcome = await send(entry, delivery);
              } finally {
                sending -= 1;
              }
              await outbox.recordAttempt(entry.event.id, delivery.target, outcome, iso());
              const hook = delivery.target === hookTarget;
              options.observe?.(
                hook ? 'hook' : 'webhook',
                outcome.ok ? 'delivered' : outcome.giveUp || !outcome.nextAttemptAt ? 'failed' : 'retry',
              );
              if (!outcome.ok) {
                const target = hook ? 'onEvent' : loggableUrl(delivery.target);
                log(`[events] ${entry.event.type} ${entry.event.id} to ${target}: ${outcome.error}`, {
                  eventId: entry.event.id,
                  eventType: entry.event.type,
                  target,
                  attempt: delivery.attempts + 1,
                  status: outcome.status,
                  willRetry: !outcome.giveUp && outcome.nextAttemptAt !== null,
                });
              }
            }),
          );
          return due.length;
        } finally {
          running = undefined;
          passStartedAt = undefined;
          lastPassEndedAt = performance.now();
        }
      })();
      return running;
    },

    /** How many deliveries are being sent now. */
    inFlight: () => sending,

    /** Whether the loop runs, and when its passes ended and began (a stuck pass shows as an old start). */
    liveness: () => ({ running: timer !== undefined, lastPassEndedAt, passStartedAt }),

    start(): void {
      if (timer) return;
      lastPassEndedAt = performance.now();
      const loop = () => {
        worker
          .tick()
          .then(
            // A pass that sent something may have let an order's next event through: look again at once.
            (sent) => {
              storeOutage.recovered();
              return sent;
            },
            (error: Error) => {
              storeOutage.failed(`[events] delivery pass failed: ${error.message}`);
              return 0;
            },
          )
          .then((sent) => {
            if (timer) timer = setTimeout(loop, sent > 0 ? 0 : (options.pollMs ?? 1000)).unref();
          });
      };
      timer = setTimeout(loop, 0).unref();
    },

    async stop(): Promise<void> {
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
  return worker;
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;
