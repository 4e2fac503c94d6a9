/**
 * The audit log of admin writes, in the store beside the orders and kept as long as they are: which credential
 * (by name, and by key id: two tokens of one name during a rotation are told apart), what (method and path, and what it made or touched), when, from which client address, and how it
 * ended. A write is recorded before it runs, so one the log cannot take is not done; its outcome is added after.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import type { Clock } from '../clock.ts';
import type { AppEnv } from '../deps.ts';
import type { Store } from '../store/store.ts';
import type { AdminScope } from './credentials.ts';

export interface AuditEntry {
  id: string;
  /** When the write was asked for (ISO). */
  createdAt: string;
  /** The admin credential's name. */
  credential: string;
  /**
   * Which of that name's tokens: the first 8 hex characters of its SHA-256, as ADMIN_CREDENTIALS lists it (the
   * older ADMIN_TOKEN: of the token's). Null in entries written before versions that recorded it.
   */
  keyId: string | null;
  scope: AdminScope;
  /** `POST /api/admin/payment-links`. */
  action: string;
  /** What it made or touched (the payment link's upstream order id, the re-sent event's id), when known. */
  target: string | null;
  /** The values it was given that say what it did (a payment link's name, amount and currency). */
  details: Record<string, unknown> | null;
  /** The client's address as the socket saw it (X-Forwarded-For is not trusted; see middleware/rate-limit.ts). */
  clientIp: string;
  requestId: string;
  /** The HTTP status answered: 2xx done, 403 refused (a read credential), other failures; null: no answer recorded (the process ended mid-write). */
  status: number | null;
  finishedAt: string | null;
}

/** What a write route tells the log about itself (`noteAudit`). */
export type AuditNote = NonNullable<AppEnv['Variables']['auditNote']>;

/** Called by a write route once it knows what it made or touched. */
export function noteAudit(c: Context<AppEnv>, note: AuditNote): void {
  c.set('auditNote', { ...c.get('auditNote'), ...note });
}

export interface AuditQuery {
  limit: number;
  credential?: string | undefined;
  /** Entries created strictly before this ISO time (the previous page's `next`). */
  before?: string | undefined;
}

export function createAuditLog(store: Store, clock: Clock) {
  const now = () => new Date(clock.now()).toISOString();
  return {
    async begin(
      entry: Omit<AuditEntry, 'id' | 'createdAt' | 'status' | 'finishedAt' | 'target' | 'details'> &
        Partial<AuditNote>,
    ): Promise<AuditEntry> {
      const record: AuditEntry = {
        id: `aud_${randomUUID().replaceAll('-', '')}`,
        createdAt: now(),
        credential: entry.credential,
        keyId: entry.keyId,
        scope: entry.scope,
        action: entry.action,
        target: entry.target ?? null,
        details: entry.details ?? null,
        clientIp: entry.clientIp,
        requestId: entry.requestId,
        status: null,
        finishedAt: null,
      };
      await store.set('audit', record.id, record);
      return record;
    },

    async finish(entry: AuditEntry, status: number, note: AuditNote = {}): Promise<AuditEntry> {
      const record: AuditEntry = {
        ...entry,
        target: note.target ?? entry.target,
        details: note.details ?? entry.details,
        status,
        finishedAt: now(),
      };
      await store.set('audit', record.id, record);
      return record;
    },

    /** Newest first. */
    async list(query: AuditQuery): Promise<AuditEntry[]> {
      const entries = await store.find<AuditEntry>(
        'audit',
        query.credential ? { credential: query.credential } : {},
        { newestFirst: true, limit: query.limit, ...(query.before ? { createdBefore: query.before } : {}) },
      );
      // Entries kept from before key ids were recorded have none.
      return entries.map((entry) => ({ ...entry, keyId: entry.keyId ?? null }));
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
