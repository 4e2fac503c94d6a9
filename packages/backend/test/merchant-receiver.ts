/** A merchant's receiver of fulfilment events over real HTTP (the events tests and the HTTP contract). */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { FulfilmentEvent } from '../src/events/fulfilment-events.ts';

export interface Received {
  id: string;
  event: FulfilmentEvent;
}

/**
 * A merchant's receiver: verifies every request with the Standard Webhooks library, answers what it is told. On
 * `port` (default one the kernel picks), listening at once unless `listening: false`: a receiver that is down
 * until `up()`, as a shop's server is while it restarts.
 */
export async function startReceiver(secret: string, options: { port?: number; listening?: boolean } = {}) {
  const verifier = new Webhook(secret);
  const received: Received[] = [];
  const rejected: string[] = [];
  let answer: number | 'hang' = 204;
  const read = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk));
      request.on('end', () => resolve(body));
    });
  const server: Server = createServer(async (request, response) => {
    const body = await read(request);
    if (answer === 'hang') return; // never answers
    try {
      const event = verifier.verify(body, request.headers as Record<string, string>) as FulfilmentEvent;
      if (answer < 300) received.push({ id: String(request.headers['webhook-id']), event });
    } catch (error) {
      rejected.push((error as Error).message);
      response.writeHead(401).end();
      return;
    }
    response.writeHead(answer).end();
  });
  let port = options.port ?? 0;
  const up = async () => {
    if (server.listening) return;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    port = (server.address() as AddressInfo).port;
  };
  const close = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  if (options.listening !== false || port === 0) await up();
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    rejected,
    answer(next: number | 'hang') {
      answer = next;
    },
    /** Starts listening (again) on its port. */
    up,
    close,
  };
}
