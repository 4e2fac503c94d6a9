/**
 * `crypto-checkout-backend listen --forward-to <url>`: a developer's receiver on a laptop hears a running backend's
 * fulfilment events without a public URL. It follows the admin event stream (`GET /api/admin/events/stream`,
 * routes/admin/event-stream.ts) and POSTs each event to the local URL signed per Standard Webhooks with a
 * development secret made at start and printed, with the delivery worker's own headers (events/delivery-worker.ts),
 * printing one line per event with the local answer. When the backend restarts it reconnects and carries on after
 * the last event it had; SIGINT or SIGTERM end it with 0.
 */
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { webhookHeaders } from '../events/delivery-worker.ts';
import { newEndpointSecret } from '../events/endpoints.ts';
import { singleKey } from '../secrets/keyring.ts';
import { type BackendAccess, backendRefusal, unreachable } from './backend-access.ts';

export interface ListenOptions extends BackendAccess {
  forwardTo: string;
  /** First forward the N newest events. */
  last: number;
  /** Only these event types (undefined: all). */
  events: readonly string[] | undefined;
  out: (line: string) => void;
  refuse: (line: string) => void;
  /** Aborted by SIGINT or SIGTERM: listen ends with 0. */
  signal: AbortSignal;
}

/** Attempts per event at the local receiver (then the next event), and the wait before each retry. */
const attemptsPerEvent = 3;
const retryDelaysMs = [500, 2000];
const forwardTimeoutMs = 10_000;
/** Between reconnections while the backend is away. */
const reconnectMs = 1000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** What a line names an event's subject by: our order, a ramp order, or a deposit's upstream order. */
function subjectOf(data: Record<string, unknown>): string {
  if (typeof data['orderId'] === 'string') return `order ${data['orderId']}`;
  if (typeof data['rampOrderId'] === 'string') return `ramp order ${data['rampOrderId']}`;
  if (typeof data['upstreamOrderId'] === 'string') return `deposit ${data['upstreamOrderId']}`;
  return '-';
}

export async function runListen(options: ListenOptions): Promise<number> {
  const { out, refuse, signal } = options;
  const secret = newEndpointSecret();
  const keyring = singleKey(secret);
  const query = new URLSearchParams();
  if (options.last > 0) query.set('last', String(options.last));
  if (options.events) query.set('events', options.events.join(','));
  const streamUrl = `${options.url}/api/admin/events/stream${query.size ? `?${query}` : ''}`;
  const forwarded = new Set<string>();
  let lastId: string | undefined;

  /** POSTs one event to the local receiver (retried a few times); the words of its outcome. */
  const forward = async (id: string, body: string): Promise<string> => {
    let outcome = '';
    for (let attempt = 1; attempt <= attemptsPerEvent; attempt += 1) {
      try {
        const response = await fetch(options.forwardTo, {
          method: 'POST',
          headers: webhookHeaders(keyring, id, new Date(), body),
          body,
          redirect: 'manual',
          signal: AbortSignal.any([signal, AbortSignal.timeout(forwardTimeoutMs)]),
        });
        await response.body?.cancel();
        if (response.ok) return `${response.status}${attempt > 1 ? ` (attempt ${attempt})` : ''}`;
        outcome = `${response.status} refused`;
        // 410 is a receiver's "stop sending", as the delivery worker reads it.
        if (response.status === 410) return outcome;
      } catch (error) {
        if (signal.aborted) return 'not sent (stopping)';
        outcome =
          (error as Error).name === 'TimeoutError'
            ? `no answer within ${forwardTimeoutMs / 1000} s`
            : `unreachable (${options.forwardTo} refused the connection)`;
      }
      const delay = retryDelaysMs[attempt - 1];
      if (delay === undefined) break;
      await sleep(delay, signal);
      if (signal.aborted) break;
    }
    return `${outcome}, gave up after ${attemptsPerEvent} attempts`;
  };

  const handle = async (id: string, type: string, data: string) => {
    if (forwarded.has(id)) return;
    forwarded.add(id);
    lastId = id;
    let subject = '-';
    try {
      const event = JSON.parse(data) as { data?: Record<string, unknown> };
      subject = subjectOf(event.data ?? {});
    } catch {
      // forwarded as it came: the receiver judges it
    }
    const answer = await forward(id, data);
    out(`${new Date().toISOString()}  ${type.padEnd(16)} ${id}  ${subject}  -> ${answer}`);
  };

  let connectedOnce = false;
  let saidLost = false;
  while (!signal.aborted) {
    let response: Response;
    try {
      response = await fetch(streamUrl, {
        headers: {
          authorization: `Bearer ${options.token}`,
          accept: 'text/event-stream',
          ...(lastId ? { 'last-event-id': lastId } : {}),
        },
        signal,
      });
    } catch (error) {
      if (signal.aborted) break;
      if (!connectedOnce) {
        refuse(unreachable(options, error));
        return 1;
      }
      await sleep(reconnectMs, signal);
      continue;
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      // Restarting behind a proxy (502, 503) is waited out once connected; a refused credential never is.
      if (connectedOnce && response.status >= 500) {
        await sleep(reconnectMs, signal);
        continue;
      }
      refuse(backendRefusal(options, response.status));
      return 1;
    }
    if (!connectedOnce) {
      connectedOnce = true;
      out(`Ready: forwarding ${options.url}'s events to ${options.forwardTo}.`);
      out(`Your webhook signing secret is ${secret} (this run's only; verify with it).`);
    } else if (saidLost) {
      out(`Reconnected to ${options.url}.`);
    }
    saidLost = false;
    try {
      const messages = response.body
        ?.pipeThrough(new TextDecoderStream())
        .pipeThrough(new EventSourceParserStream());
      if (messages) {
        for await (const message of messages) {
          if (message.id && message.event) await handle(message.id, message.event, message.data);
        }
      }
    } catch {
      // the connection was cut (the backend stopped): reconnect below
    }
    if (signal.aborted) break;
    out(`${new Date().toISOString()}  lost the connection to ${options.url}; reconnecting…`);
    saidLost = true;
    await sleep(reconnectMs, signal);
  }
  return 0;
}
