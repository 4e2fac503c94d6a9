/**
 * An open-loop load generator: shoppers arrive at a steady rate whatever the server does (a Poisson process, the
 * way independent shoppers arrive, seeded so every target gets the same stream), each on a keep-alive connection
 * from a bounded pool. Latency is timed from when the request was due, not from when a socket was free, so a
 * server that falls behind is charged for the queue it builds (no coordinated omission).
 *
 * autocannon's `overallRate` is not that: it gives each of its N connections a 1-request-per-second allowance
 * refilled by a timer per connection, and the N timers start together, so "1000/s" over 1000 connections is
 * 1000 requests landing at once at the start of every second (see `burst` in bench/load.ts).
 */
import { Agent, request } from 'node:http';
import { prng } from './prng.ts';

export interface Arrival {
  /** ms from the start at which the request was due, sent, and answered (or failed). */
  dueMs: number;
  sentMs: number;
  doneMs: number;
  /** HTTP status, or 0 for a socket error or a timeout. */
  status: number;
  body: string;
  timedOut: boolean;
}

export interface OpenLoopOptions {
  url: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** Requests per second, on average (exponential gaps between arrivals). */
  rate: number;
  durationS: number;
  /** Most sockets open at once; a request due while all are busy waits for one (and that wait is timed). */
  connections: number;
  seed: number;
  body?: () => string;
  timeoutMs?: number;
}

/** The due times (ms from the start) of a Poisson arrival stream of `rate`/s over `durationS`. */
export function poissonArrivals(rate: number, durationS: number, seed: number): number[] {
  const random = prng(seed);
  const times: number[] = [];
  const end = durationS * 1000;
  for (let at = 0; ; ) {
    at += (-Math.log(1 - random()) * 1000) / rate;
    if (at >= end) return times;
    times.push(at);
  }
}

export async function openLoop(options: OpenLoopOptions): Promise<Arrival[]> {
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const due = poissonArrivals(options.rate, options.durationS, options.seed);
  const arrivals: Arrival[] = [];
  let pending = due.length;
  const start = performance.now();
  const now = () => performance.now() - start;

  return new Promise((resolve) => {
    const finish = (arrival: Arrival) => {
      arrivals.push(arrival);
      if (--pending === 0) {
        agent.destroy();
        resolve(arrivals);
      }
    };
    const fire = (dueMs: number) => {
      const payload = options.body?.();
      const sentMs = now();
      const chunks: Buffer[] = [];
      let settled = false;
      const settle = (status: number, timedOut: boolean) => {
        if (settled) return;
        settled = true;
        finish({ dueMs, sentMs, doneMs: now(), status, body: Buffer.concat(chunks).toString(), timedOut });
      };
      const outgoing = request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          method: options.method,
          path: options.path,
          headers: {
            ...options.headers,
            ...(payload === undefined ? {} : { 'content-length': Buffer.byteLength(payload) }),
          },
        },
        (response) => {
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => settle(response.statusCode ?? 0, false));
          response.on('error', () => settle(0, false));
        },
      );
      outgoing.setTimeout(options.timeoutMs ?? 15_000, () => {
        settle(0, true);
        outgoing.destroy();
      });
      outgoing.on('error', () => settle(0, false));
      outgoing.end(payload);
    };
    let next = 0;
    const tick = () => {
      const at = now();
      while (next < due.length && (due[next] as number) <= at) fire(due[next++] as number);
      if (next < due.length) setTimeout(tick, Math.min(1, Math.max(0, (due[next] as number) - now())));
    };
    if (due.length === 0) resolve(arrivals);
    else tick();
  });
}
