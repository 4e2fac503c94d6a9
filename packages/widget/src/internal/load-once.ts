/** The one way the widget loads code it needs later (a part's chunk, a language): once, over a network that may fail. */
import { ApiError } from '../api/client.ts';

/**
 * `load` made load-once: every call shares one load, running or done; a failed load rejects with NETWORK_ERROR
 * and is forgotten, so the next call (the shopper's next press, touch or visit) tries again.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch(() => {
      loading = undefined;
      throw new ApiError('NETWORK_ERROR');
    }));
}
