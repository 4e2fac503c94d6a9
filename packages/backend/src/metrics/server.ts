/**
 * /metrics on a listener of its own (METRICS_PORT, bound to METRICS_HOST): for a scraper on a private network or
 * the same host, apart from the port shoppers reach. createRuntime starts it; `close` stops it.
 */
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Registry } from 'prom-client';
import { metricsRoutes } from './routes.ts';

export interface MetricsServer {
  /** `http://host:port/metrics` as bound (the port chosen by the system when 0 was asked). */
  url: string;
  close(): Promise<void>;
}

export async function serveMetrics(options: {
  registry: Registry;
  token: string | undefined;
  port: number;
  host: string;
}): Promise<MetricsServer> {
  const app = metricsRoutes(options.registry, options.token);
  const server = createAdaptorServer({ fetch: app.fetch });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, host: options.host }, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}
