/**
 * What must survive a restart, behind one small interface: idempotency records, the ledger of orders this
 * backend created (with their status history), the customer-to-route map, the webhook dedupe set and the
 * ramp orders reported by ramp callbacks.
 * Every operation is async and key-based so a shared store (Redis, a database) can implement it later;
 * `setIfAbsent` is the one atomic primitive the callers rely on (Redis `SET NX`).
 */
export type Collection = 'idempotency' | 'orders' | 'routes' | 'webhooks' | 'ramp-orders' | 'outbox';

export interface Store {
  get<T>(collection: Collection, key: string): Promise<T | undefined>;
  set<T>(collection: Collection, key: string, value: T): Promise<void>;
  /** Writes only when the key is absent; true when it wrote. */
  setIfAbsent<T>(collection: Collection, key: string, value: T): Promise<boolean>;
  delete(collection: Collection, key: string): Promise<void>;
  values<T>(collection: Collection): Promise<T[]>;
  close(): Promise<void>;
}
