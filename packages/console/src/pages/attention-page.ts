/**
 * Needs attention: the orders a person must look at (underpaid, overpaid, paid late, still awaiting payment past
 * their expiry) and the events whose deliveries keep failing, oldest first. There is no route of its own: it is
 * read from the orders list (by status) and the events list (given up, or failing again and again).
 */
import { html, LitElement, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { type AdminOrder, type OrdersPage, type OutboxEvent, orderKey } from '../admin-types.ts';
import { ApiError, type ConsoleApi } from '../api.ts';
import { amount, when } from '../format.ts';
import { pageStyles } from '../styles.ts';

interface Item {
  at: string;
  reason: string;
  order?: AdminOrder;
  event?: OutboxEvent;
}

/** A delivery retried this many times without success counts as failing again and again. */
const failingAttempts = 3;

@customElement('cc-attention-page')
export class AttentionPageElement extends LitElement {
  static override styles = pageStyles;

  /** The signed-in console's calls. */
  @property({ attribute: false }) api!: ConsoleApi;

  @state() private items: Item[] | undefined;
  @state() private error = '';

  override connectedCallback(): void {
    super.connectedCallback();
    void this.collect();
  }

  private async byStatus(status: string): Promise<AdminOrder[]> {
    try {
      return (await this.api.get<OrdersPage>('/orders', { status, limit: 100 })).orders;
    } catch (error) {
      // A status this backend does not have yet (paid late comes with refunds) is a 422: nothing to show.
      if (error instanceof ApiError && error.status === 422) return [];
      throw error;
    }
  }

  private async collect() {
    try {
      const now = Date.now();
      const [underpaid, overpaid, late, awaiting, failed, pending] = await Promise.all([
        this.byStatus('underpaid'),
        this.byStatus('overpaid'),
        this.byStatus('paid_late'),
        this.byStatus('awaiting_payment'),
        this.api.get<{ events: OutboxEvent[] }>('/events', { state: 'failed', limit: 200 }),
        this.api.get<{ events: OutboxEvent[] }>('/events', { state: 'pending', limit: 200 }),
      ]);
      const orders = (list: AdminOrder[], reason: string): Item[] =>
        list.map((order) => ({ at: order.createdAt ?? '', reason, order }));
      const stuck = awaiting.filter((order) => order.expiresAt && Date.parse(order.expiresAt) < now);
      const failing = [
        ...failed.events,
        ...pending.events.filter((event) =>
          event.deliveries.some((d) => d.state === 'pending' && d.attempts >= failingAttempts),
        ),
      ];
      this.items = [
        ...orders(underpaid, 'Underpaid'),
        ...orders(overpaid, 'Overpaid'),
        ...orders(late, 'Paid late'),
        ...stuck.map((order) => ({
          at: order.expiresAt ?? '',
          reason: 'Awaiting payment past expiry',
          order,
        })),
        ...failing.map((event) => ({ at: event.createdAt, reason: 'Deliveries failing', event })),
      ].sort((a, b) => a.at.localeCompare(b.at));
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  private renderItem(item: Item) {
    const { order, event } = item;
    if (order) {
      const key = orderKey(order);
      return html`<tr>
        <td data-label="Since">${when(item.at)}</td>
        <td data-label="Why" class="status">${item.reason}</td>
        <td data-label="What"><a href="#/orders/${encodeURIComponent(key)}" class="mono">${key}</a>
          · ${order.purchase?.name ?? ''} ${amount(order.purchase?.price, order.purchase?.currency)}</td>
        <td data-label="Detail">${order.paid ? `paid ${amount(order.paid.amount, order.paid.currency)}` : '—'}</td>
      </tr>`;
    }
    const last = event?.deliveries.find((d) => d.state !== 'delivered');
    return html`<tr>
      <td data-label="Since">${when(item.at)}</td>
      <td data-label="Why" class="status">${item.reason}</td>
      <td data-label="What">${event?.type}
        ${event?.orderId ? html`· <a href="#/orders/${encodeURIComponent(event.orderId)}" class="mono">${event.orderId}</a>` : nothing}</td>
      <td data-label="Detail">${last ? `${last.attempts} attempt(s) to ${last.target}: ${last.lastError ?? last.lastStatus ?? 'no answer'}` : '—'}</td>
    </tr>`;
  }

  override render() {
    return html`<h1>Needs attention</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${
        !this.items
          ? html`<p role="status">Looking…</p>`
          : this.items.length === 0
            ? html`<p role="status">Nothing needs a person: no underpaid, overpaid or late payment, no order stuck past
                its expiry, no delivery failing.</p>`
            : html`<p role="status" class="muted">${this.items.length} item(s), oldest first.</p>
              <table class="stack">
                <thead><tr><th>Since</th><th>Why</th><th>What</th><th>Detail</th></tr></thead>
                <tbody>${this.items.map((item) => this.renderItem(item))}</tbody>
              </table>`
      }`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'cc-attention-page': AttentionPageElement;
  }
}
