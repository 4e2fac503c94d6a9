/**
 * What the console reads from the admin routes (packages/backend/API.md, "Merchant routes"). Fields the backend may
 * leave out are optional: the console shows a dash rather than failing.
 */

export interface AdminPayment {
  id?: string | null;
  amount?: string | null;
  currency?: string | null;
  status?: string | null;
  txHash?: string | null;
  confirmedAt?: string | null;
}

export interface AdminOrder {
  /** Ours (`ord_…`) in the ledger's list; the upstream's in the upstream's list. */
  id: string;
  externalId?: string | null;
  /** The upstream's id (the ledger's list). */
  upstreamId?: string | null;
  customerEmail?: string | null;
  txHashes?: string[];
  status?: string | null;
  upstreamStatus?: string | null;
  link?: string | null;
  purchase?: { name?: string | null; price?: string | null; currency?: string | null; notes?: string | null };
  paid?: { amount: string; currency: string } | null;
  customer?: { id?: string | null; name?: string | null; email?: string | null; country?: string | null };
  createdAt?: string | null;
  expiresAt?: string | null;
  payments?: AdminPayment[];
  reference?: string | null;
}

export interface StatusChange {
  status?: string;
  upstreamStatus?: string;
  at?: string;
  source?: string;
  [key: string]: unknown;
}

export interface DeliveryAttempt {
  at: string;
  status: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

export interface OrderEvent {
  id: string;
  type: string;
  createdAt: string;
  state?: string;
  deliveries: Array<{ endpointId: string; attempts: DeliveryAttempt[] }>;
}

export interface AuditEntry {
  id: string;
  createdAt: string;
  credential: string;
  scope: string;
  action: string;
  target: string | null;
  details: Record<string, unknown> | null;
  clientIp: string;
  status: number | null;
}

export interface OrderDetail {
  order: AdminOrder & { statusHistory?: StatusChange[]; purchase?: AdminOrder['purchase'] };
  events: OrderEvent[];
  audit: AuditEntry[];
}

export interface OrdersPage {
  orders: AdminOrder[];
  nextCursor: string | null;
}

/** The events list (`GET /api/admin/events`): each delivery's summary. */
export interface OutboxEvent {
  id: string;
  type: string;
  orderId: string | null;
  createdAt: string;
  deliveries: Array<{
    target: string;
    state: 'pending' | 'delivered' | 'failed';
    attempts: number;
    nextAttemptAt: string;
    lastStatus: number | null;
    lastError: string | null;
    lastAttemptAt: string | null;
  }>;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  description: string | null;
  source: 'config' | 'api';
  createdAt: string;
}

/** The order statuses a filter may ask for (orders/status.ts, and issue 42's states). */
export const orderStatuses = [
  'pending',
  'awaiting_payment',
  'underpaid',
  'paid',
  'overpaid',
  'paid_late',
  'expired',
  'failed',
] as const;

/** Our id when the backend made the order, else the upstream's: what the order page's hash carries. */
export const orderKey = (order: AdminOrder) => order.externalId ?? order.id;
