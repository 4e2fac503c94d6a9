/** Two kinds of prom-client counter the series are built from. */
import { Counter, type Registry } from 'prom-client';

/** A counter whose value is kept elsewhere: set to it at each scrape. */
export function mirroredCounter(
  registry: Registry,
  name: string,
  help: string,
  read: () => number | undefined,
) {
  return new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const value = read();
      if (value === undefined) return;
      this.reset();
      this.inc(value);
    },
  });
}

/** A count on a shopper's request path: a plain addition there, handed to its prom-client child when scraped. */
export interface Tally {
  n: number;
}

/**
 * A counter counted per request (requests, quotes): prom-client hashes a child's labels on every `inc`, so each
 * label set's count is a plain number until a scrape (or any read of the registry) adds it to the child.
 */
export function talliedCounter(
  registry: Registry,
  config: { name: string; help: string; labelNames: string[] },
): (...labels: string[]) => Tally {
  const tallies: Array<Tally & { child: Counter.Internal }> = [];
  const counter: Counter = new Counter({
    ...config,
    registers: [registry],
    collect() {
      for (const tally of tallies) {
        if (tally.n === 0) continue;
        tally.child.inc(tally.n);
        tally.n = 0;
      }
    },
  });
  return (...labels) => {
    const tally = { n: 0, child: counter.labels(...labels) };
    tallies.push(tally);
    return tally;
  };
}
