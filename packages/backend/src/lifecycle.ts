/**
 * Where a running backend is in its life: serving, or draining towards a shutdown. `/readyz` reads `draining`
 * (a load balancer takes the instance out while requests are still served); status streams register to be ended
 * with a retry hint when the server is about to close (`endStreams`), so a browser reconnects to another instance.
 */
export class Lifecycle {
  draining = false;
  /** Requests begun and not yet answered (a status stream counts until its response starts; then in `openStreams`). */
  requests = 0;
  readonly #streams = new Set<() => void>();

  /** Status streams open now. */
  get openStreams(): number {
    return this.#streams.size;
  }

  /** `onDrain`: told once a drain begins (the readiness checks, which then fail `/readyz`'s `shutdown`). */
  constructor(private readonly onDrain: () => void = () => undefined) {}

  /** Readiness fails from now on; nothing else changes. */
  drain(): void {
    if (this.draining) return;
    this.draining = true;
    this.onDrain();
  }

  /** Registers an open stream's ending; returns the unregistration (for a stream that ends by itself). */
  onEnd(end: () => void): () => void {
    this.#streams.add(end);
    return () => this.#streams.delete(end);
  }

  /** Ends every open status stream (each writes its retry hint first); how many there were. */
  endStreams(): number {
    const ends = [...this.#streams];
    this.#streams.clear();
    for (const end of ends) end();
    return ends.length;
  }
}
