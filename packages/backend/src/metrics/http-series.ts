/** The HTTP series: requests answered and their durations, by route template, method and status. */
import { Histogram, type Registry } from 'prom-client';
import { type Tally, talliedCounter } from './counters.ts';
import type { Metrics } from './types.ts';

/** Request durations: a cached quote answers in about a millisecond, an order waits on the upstream. */
const httpBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function httpSeries(registry: Registry): Pick<Metrics, 'httpRequest'> {
  const requests = talliedCounter(registry, {
    name: 'checkout_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status.',
    labelNames: ['method', 'route', 'status'],
  });
  const durations = new Histogram({
    name: 'checkout_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being ready (a stream: until it starts).',
    labelNames: ['method', 'route'],
    buckets: httpBuckets,
    registers: [registry],
  });
  // Each label set's tally and histogram child, found by one lookup.
  const requestChildren = new Map<string, { count: Tally; time: Histogram.Internal<'method' | 'route'> }>();

  return {
    httpRequest(method, route, status, seconds) {
      const key = `${method} ${route} ${status}`;
      let child = requestChildren.get(key);
      if (!child) {
        child = {
          count: requests(method, route, String(status)),
          time: durations.labels(method, route),
        };
        requestChildren.set(key, child);
      }
      child.count.n += 1;
      child.time.observe(seconds);
    },
  };
}
