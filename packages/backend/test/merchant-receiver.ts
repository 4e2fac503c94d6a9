/** A merchant's receiver of fulfilment events over real HTTP (the events tests and the HTTP contract). */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { FulfilmentEvent } from '../src/events/fulfilment-events.ts';

export interface Received {
  id: string;
  event: FulfilmentEvent;
}

/** A merchant's receiver: verifies every request with the Standard Webhooks library, answers what it is told. */
export async function startReceiver(secret: string) {
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    rejected,
    answer(next: number | 'hang') {
      answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
