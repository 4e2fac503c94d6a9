/**
 * Orders: one list of the orders this backend made, joined with the upstream's view, searchable by our id, the
 * upstream's id, a transaction hash, the payer's e-mail or the merchant's reference, filtered by status and dates,
 * paged by cursor (`GET /api/admin/orders`).
 */
import { html, LitElement, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { type AdminOrder, type OrdersPage, orderKey, orderStatuses } from '../admin-types.ts';
import type { ConsoleApi } from '../api.ts';
import { amount, dayBound, short, when } from '../format.ts';
import { pageStyles } from '../styles.ts';

interface Filters {
  q: string;
  status: string;
  from: string;
  to: string;
}

const pageSize = 25;

@customElement('cc-orders-page')
export class OrdersPageElement extends LitElement {
  static override styles = pageStyles;

  /** The signed-in console's calls. */
  @property({ attribute: false }) api!: ConsoleApi;

  @state() private filters: Filters = { q: '', status: '', from: '', to: '' };
  /** The cursors of the pages before this one (the first is null), for "Previous". */
  @state() private cursors: Array<string | null> = [null];
  @state() private result: OrdersPage | undefined;
  @state() private error = '';
  @state() private loading = false;
  private controller: AbortController | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.fetchPage();
  }

  private async fetchPage() {
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    this.loading = true;
    this.error = '';
    const { q, status, from, to } = this.filters;
    try {
      const page = await this.api.get<OrdersPage>(
        '/orders',
        {
          q,
          status,
          from: from ? dayBound(from, false) : undefined,
          to: to ? dayBound(to, true) : undefined,
          limit: pageSize,
          cursor: this.cursors.at(-1),
        },
        controller.signal,
      );
      if (controller.signal.aborted) return;
      this.result = page;
    } catch (error) {
      if (controller.signal.aborted) return;
      this.error = (error as Error).message;
    } finally {
      if (this.controller === controller) this.loading = false;
    }
  }

  private search(event: SubmitEvent) {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const value = (name: string) => (data.get(name) ?? '').toString().trim();
    this.filters = { q: value('q'), status: value('status'), from: value('from'), to: value('to') };
    this.cursors = [null];
    void this.fetchPage();
  }

  private next() {
    if (!this.result?.nextCursor) return;
    this.cursors = [...this.cursors, this.result.nextCursor];
    void this.fetchPage();
  }

  private previous() {
    if (this.cursors.length < 2) return;
    this.cursors = this.cursors.slice(0, -1);
    void this.fetchPage();
  }

  private renderRow(order: AdminOrder) {
    const key = orderKey(order);
    const tx = order.txHashes?.[0] ?? order.payments?.find((payment) => payment.txHash)?.txHash;
    return html`<tr data-order=${key}>
      <td data-label="Order"><a href="#/orders/${encodeURIComponent(key)}" class="mono short-id">${short(key)}</a></td>
      <td data-label="Created">${when(order.createdAt)}</td>
      <td data-label="Status" class="status">${order.status ?? order.upstreamStatus ?? '—'}</td>
      <td data-label="Product">${order.purchase?.name ?? '—'}</td>
      <td data-label="Price">${amount(order.purchase?.price, order.purchase?.currency)}</td>
      <td data-label="Paid">${order.paid ? amount(order.paid.amount, order.paid.currency) : '—'}</td>
      <td data-label="Payer">${order.customerEmail ?? order.customer?.email ?? '—'}</td>
      <td data-label="Transaction" class="mono short-id" title=${tx ?? nothing}>${short(tx, 8)}</td>
    </tr>`;
  }

  override render() {
    const { q, status, from, to } = this.filters;
    const orders = this.result?.orders ?? [];
    return html`<h1>Orders</h1>
      <form class="filters" role="search" @submit=${this.search}>
        <label class="grow">Search
          <input name="q" type="search" .value=${q}
            placeholder="Order id, upstream id, transaction hash, e-mail, reference" />
        </label>
        <label>Status
          <select name="status">
            <option value="" ?selected=${status === ''}>Any</option>
            ${orderStatuses.map((s) => html`<option value=${s} ?selected=${status === s}>${s}</option>`)}
          </select>
        </label>
        <label>From <input name="from" type="date" .value=${from} /></label>
        <label>To <input name="to" type="date" .value=${to} /></label>
        <button type="submit">Search</button>
      </form>
      <p role="status" class=${this.error ? 'error' : 'muted'}>
        ${this.error ? `Could not list orders: ${this.error}` : this.loading ? 'Loading orders…' : `${orders.length} order(s) on this page`}
      </p>
      ${
        orders.length
          ? html`<table class="stack">
            <thead><tr><th>Order</th><th>Created</th><th>Status</th><th>Product</th><th>Price</th><th>Paid</th>
              <th>Payer</th><th>Transaction</th></tr></thead>
            <tbody>${orders.map((order) => this.renderRow(order))}</tbody>
          </table>`
          : this.result && !this.loading
            ? html`<p>No orders match.</p>`
            : nothing
      }
      <div class="row pager">
        <button class="secondary" type="button" ?disabled=${this.cursors.length < 2 || this.loading}
          @click=${this.previous}>Previous page</button>
        <button class="secondary" type="button" ?disabled=${!this.result?.nextCursor || this.loading}
          @click=${this.next}>Next page</button>
      </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'cc-orders-page': OrdersPageElement;
  }
}
