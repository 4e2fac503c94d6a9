/**
 * Runs async work one at a time per key (per instance, not global): two requests with one Idempotency-Key, two
 * webhooks for one order, or two first calls for one customer's route wait for each other instead of racing.
 */
export interface KeyedLock {
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const mine = previous.catch(() => undefined).then(work);
      tails.set(key, mine);
      // Forget the key once the queue behind it is empty, so the map does not grow with every key ever seen.
      const forget = () => {
        if (tails.get(key) === mine) tails.delete(key);
      };
      mine.then(forget, forget);
      return mine;
    },
  };
}
