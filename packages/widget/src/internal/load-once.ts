/** The one way the widget loads code it needs later (a part's chunk, a language): once, over a network that may fail. */
import { ApiError } from '../api/client.ts';

/**
 * What a failed load of code is: INTEGRITY when the script-tag bundle refused a file whose bytes are not those
 * its build pinned (build/verified-import.ts rejects with that word, having said which file), else NETWORK_ERROR.
 */
export const loadError = (e: unknown): ApiError => new ApiError(e === 'INTEGRITY' ? e : 'NETWORK_ERROR');

/**
 * `load` made load-once: every call shares one load, running or done; a failed load rejects with NETWORK_ERROR
 * (or INTEGRITY: `loadError`) and is forgotten, so the next call (the shopper's next press, touch or visit) tries again.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((e) => {
      loading = undefined;
      throw loadError(e);
    }));
}
