/**
 * An order: its status history, what was paid, the customer, the purchase, every event with every delivery
 * attempt (time, status, response excerpt), its audit entries, and re-sending an event (a write credential's).
 */
import { html, LitElement, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { OrderDetail, OrderEvent } from '../admin-types.ts';
import type { ConsoleApi } from '../api.ts';
import { amount, readOnlyReason, when } from '../format.ts';
import { pageStyles } from '../styles.ts';

@customElement('cc-order-page')
export class OrderPageElement extends LitElement {
  static override styles = pageStyles;

  /** The signed-in console's calls. */
  @property({ attribute: false }) api!: ConsoleApi;
  /** Our order id or the upstream's. */
  @property() orderId = '';

  @state() private detail: OrderDetail | undefined;
  @state() private error = '';
  @state() private message = '';

  override updated(changed: Map<string, unknown>): void {
    if (changed.has('orderId') && this.orderId) void this.fetchOrder();
  }

  private async fetchOrder() {
    this.error = '';
    try {
      this.detail = await this.api.get<OrderDetail>(`/orders/${encodeURIComponent(this.orderId)}`);
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  private async resend(event: OrderEvent) {
    this.message = '';
    try {
      await this.api.send('POST', `/events/${encodeURIComponent(event.id)}/resend`);
      this.message = `Event ${event.type} (${event.id}) is being sent again.`;
      await this.fetchOrder();
    } catch (error) {
      this.message = `Could not re-send: ${(error as Error).message}`;
    }
  }

  private renderEvent(event: OrderEvent) {
    const canWrite = this.api.canWrite;
    return html`<section class="panel event" data-event=${event.id} aria-label="Event ${event.type}">
      <div class="row">
        <strong>${event.type}</strong>
        <span class="muted">${when(event.createdAt)}</span>
        ${event.state ? html`<span class="status">${event.state}</span>` : nothing}
        <button type="button" ?disabled=${!canWrite} aria-describedby=${canWrite ? nothing : 'why-not'}
          @click=${() => this.resend(event)}>Re-send</button>
      </div>
      <p class="muted mono">${event.id}</p>
      ${
        event.deliveries.length === 0
          ? html`<p class="muted">No endpoint was to receive it.</p>`
          : event.deliveries.map(
              (delivery) => html`<h3 class="muted">To ${delivery.endpointId}</h3>
                <table class="stack attempts">
                  <thead><tr><th>Attempt at</th><th>Status</th><th>Error</th><th>Response</th></tr></thead>
                  <tbody>
                    ${
                      delivery.attempts.length === 0
                        ? html`<tr><td colspan="4">Not attempted yet.</td></tr>`
                        : delivery.attempts.map(
                            (attempt) => html`<tr class="attempt">
                              <td data-label="At">${when(attempt.at)}</td>
                              <td data-label="Status">${attempt.status ?? 'no answer'}</td>
                              <td data-label="Error">${attempt.error ?? '—'}</td>
                              <td data-label="Response" class="mono">${attempt.responseExcerpt ?? '—'}</td>
                            </tr>`,
                          )
                    }
                  </tbody>
                </table>`,
            )
      }
    </section>`;
  }

  override render() {
    if (this.error)
      return html`<h1>Order</h1><p class="error" role="alert">${this.error}</p>
      <p><a href="#/orders">Back to the orders</a></p>`;
    if (!this.detail) return html`<h1>Order</h1><p role="status">Loading the order…</p>`;
    const { order, events, audit } = this.detail;
    const history = order.statusHistory ?? [];
    return html`<p><a href="#/orders">← Orders</a></p>
      <h1>Order <span class="mono">${order.externalId ?? order.id}</span></h1>
      <div class="panel">
        <dl>
          <dt>Status</dt><dd class="status">${order.status ?? order.upstreamStatus ?? '—'}</dd>
          <dt>Our id</dt><dd class="mono">${order.externalId ?? order.id}</dd>
          <dt>Upstream id</dt><dd class="mono">${order.upstreamId ?? order.id}</dd>
          ${order.reference ? html`<dt>Reference</dt><dd class="mono">${order.reference}</dd>` : nothing}
          <dt>Created</dt><dd>${when(order.createdAt)}</dd>
          <dt>Expires</dt><dd>${when(order.expiresAt)}</dd>
          <dt>Paid</dt><dd>${order.paid ? amount(order.paid.amount, order.paid.currency) : 'nothing yet'}</dd>
          ${order.link ? html`<dt>Payment page</dt><dd><a href=${order.link} rel="noreferrer">${order.link}</a></dd>` : nothing}
        </dl>
      </div>
      <h2>Customer</h2>
      <div class="panel"><dl>
        <dt>Name</dt><dd>${order.customer?.name ?? '—'}</dd>
        <dt>E-mail</dt><dd>${order.customer?.email ?? order.customerEmail ?? '—'}</dd>
        <dt>Country</dt><dd>${order.customer?.country ?? '—'}</dd>
        <dt>Customer id</dt><dd class="mono">${order.customer?.id ?? '—'}</dd>
      </dl></div>
      <h2>Purchase</h2>
      <div class="panel"><dl>
        <dt>Product</dt><dd>${order.purchase?.name ?? '—'}</dd>
        <dt>Price</dt><dd>${amount(order.purchase?.price, order.purchase?.currency)}</dd>
        <dt>Notes</dt><dd>${order.purchase?.notes ?? '—'}</dd>
      </dl></div>
      <h2>Status history</h2>
      ${
        history.length
          ? html`<ol>${history.map(
              (change) => html`<li><span class="status">${change.status ?? '—'}</span>
                ${change.upstreamStatus ? html`<span class="muted">(${change.upstreamStatus})</span>` : nothing}
                · ${when(change.at)}${change.source ? html` · <span class="muted">${change.source}</span>` : nothing}</li>`,
            )}</ol>`
          : html`<p class="muted">No changes recorded.</p>`
      }
      <h2>Payments</h2>
      ${
        order.payments?.length
          ? html`<table class="stack payments">
            <thead><tr><th>Amount</th><th>Status</th><th>Transaction</th><th>Confirmed</th></tr></thead>
            <tbody>${order.payments.map(
              (payment) => html`<tr>
                <td data-label="Amount">${amount(payment.amount, payment.currency)}</td>
                <td data-label="Status">${payment.status ?? '—'}</td>
                <td data-label="Transaction" class="mono">${payment.txHash ?? '—'}</td>
                <td data-label="Confirmed">${when(payment.confirmedAt)}</td>
              </tr>`,
            )}</tbody>
          </table>`
          : html`<p class="muted">No payment seen.</p>`
      }
      <h2>Events</h2>
      ${this.api.canWrite ? nothing : html`<p class="notice" id="why-not">${readOnlyReason(this.api.session.credential.name)}</p>`}
      <p role="status">${this.message}</p>
      ${events.length ? events.map((event) => this.renderEvent(event)) : html`<p class="muted">No events yet.</p>`}
      <h2>Audit</h2>
      ${
        audit.length
          ? html`<table class="stack">
            <thead><tr><th>When</th><th>Who</th><th>What</th><th>Outcome</th></tr></thead>
            <tbody>${audit.map(
              (entry) => html`<tr>
                <td data-label="When">${when(entry.createdAt)}</td>
                <td data-label="Who">${entry.credential} (${entry.scope})</td>
                <td data-label="What" class="mono">${entry.action}</td>
                <td data-label="Outcome">${entry.status ?? 'unknown'}</td>
              </tr>`,
            )}</tbody>
          </table>`
          : html`<p class="muted">No admin action touched this order.</p>`
      }`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'cc-order-page': OrderPageElement;
  }
}
