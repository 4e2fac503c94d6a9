/**
 * Who may still be answering an idempotency claim (idempotency.ts `ClaimOwners`), so a shopper whose order was
 * being made by a process that was killed can try again at once rather than after the claim goes stale:
 * - **several instances on Redis**: each keeps its key alive while it runs (shared/redis.ts); a claim whose
 *   instance has not said so for INSTANCE_ALIVE_MS was left behind;
 * - **one process on SQLite**: the DATA_DIR lock lets no second process in (data-dir-lock.ts), so a claim this
 *   process did not make was left by one that stopped (a crash, a SIGKILL, a restart);
 * - **PostgreSQL without Redis**: nothing says which processes run; only a claim's age does (undefined).
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import type { SharedState } from '../shared/redis.ts';
import type { ClaimOwners } from './idempotency.ts';

export function claimOwners(config: Config, shared: SharedState | undefined): ClaimOwners | undefined {
  if (shared) return { self: shared.instanceId, alive: shared.alive };
  if (config.databaseUrl) return undefined;
  const self = randomUUID();
  return { self, alive: async (owner) => owner === self };
}
