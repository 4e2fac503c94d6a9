/**
 * What each store reads out of a record besides its JSON: the indexed fields `find` filters on, the status rank
 * that keeps an order from moving backwards, the creation time lists are ordered by, and when the record
 * expires. One function for every store, so the memory store and the SQL store agree.
 */
import { upstreamRank } from '../orders/status.ts';
import { orderTerms } from './order-search.ts';
import type { Collection } from './store.ts';

export interface Derived {
  orderId: string | null;
  pending: number | null;
  upstreamKey: string | null;
  credential: string | null;
  statusRank: number | null;
  upstreamStatus: string | null;
  /** orders: our status (the admin's filter). */
  ledgerStatus: string | null;
  /** orders: what the admin's search matches (order-search.ts). */
  terms: string[] | null;
  createdAt: string | null;
  /** Epoch ms, or null for records that are kept. */
  expiresAt: number | null;
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);

export function derive(collection: Collection, value: unknown, now: number, retentionMs: number): Derived {
  const record = (value ?? {}) as Record<string, unknown>;
  const derived: Derived = {
    orderId: null,
    pending: null,
    upstreamKey: null,
    credential: null,
    statusRank: null,
    upstreamStatus: null,
    ledgerStatus: null,
    terms: null,
    createdAt: text(record['createdAt']),
    expiresAt: null,
  };
  switch (collection) {
    case 'orders':
      derived.upstreamKey = text(record['upstreamId'])?.replace(/^SP-/, '') ?? null;
      derived.upstreamStatus = text(record['upstreamStatus'])?.toUpperCase() ?? '';
      derived.statusRank = upstreamRank(derived.upstreamStatus);
      derived.ledgerStatus = text(record['status']);
      derived.terms = orderTerms(record);
      break;
    case 'outbox': {
      const deliveries = Array.isArray(record['deliveries'])
        ? (record['deliveries'] as Array<{ state?: unknown }>)
        : [];
      derived.orderId = text(record['orderId']);
      derived.pending = deliveries.some((delivery) => delivery.state === 'pending') ? 1 : 0;
      break;
    }
    case 'refunds':
      // Kept as long as the orders: for ever.
      derived.orderId = text(record['orderId']);
      break;
    case 'audit':
      // Kept as long as the orders: for ever.
      derived.credential = text(record['credential']);
      break;
    case 'idempotency':
      // A claim still running (or uncertain) is kept until it finishes; a finished one only answers replays.
      if (record['state'] === 'done') derived.expiresAt = now + retentionMs;
      break;
    case 'webhooks':
      // The upstream retries a webhook for 24 h at most: past the retention a duplicate cannot come.
      derived.expiresAt = now + retentionMs;
      break;
    case 'console-sessions': {
      // A sign-in lasts until the time it was given (CONSOLE_SESSION_MINUTES), whatever the retention.
      const until = Date.parse(text(record['expiresAt']) ?? '');
      derived.expiresAt = Number.isNaN(until) ? now : until;
      break;
    }
    default:
      break;
  }
  return derived;
}

/**
 * Whether an order record may replace the stored one: its status ranks higher, or the same status again (a
 * top-up changes the paid amount only). The finals share one rank, so no final ever replaces another.
 */
export const mayReplaceOrder = (stored: Derived, next: Derived) =>
  (next.statusRank ?? -1) > (stored.statusRank ?? -1) ||
  (next.statusRank === stored.statusRank && next.upstreamStatus === stored.upstreamStatus);

/** The default retention of finished idempotency records and webhook dedupe records. */
export const defaultRetentionMs = 24 * 60 * 60 * 1000;
