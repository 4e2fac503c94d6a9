/**
 * Payment links: make one (a name, an internal note, a display amount: `POST /api/admin/payment-links`), copy it,
 * and the links made so far with what was paid (the upstream's orders whose reference is a link's, `link_…`).
 */
import { html, LitElement, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { type AdminOrder, type OrdersPage, orderKey } from '../admin-types.ts';
import type { ConsoleApi } from '../api.ts';
import { amount, readOnlyReason, when } from '../format.ts';
import { pageStyles } from '../styles.ts';

interface Created {
  orderId: string;
  link: string;
  expiresAt: string | null;
}

@customElement('cc-links-page')
export class LinksPageElement extends LitElement {
  static override styles = pageStyles;

  /** The signed-in console's calls. */
  @property({ attribute: false }) api!: ConsoleApi;

  @state() private links: AdminOrder[] | undefined;
  @state() private created: Created | undefined;
  @state() private error = '';
  @state() private listError = '';
  @state() private copied = '';

  override connectedCallback(): void {
    super.connectedCallback();
    void this.fetchLinks();
  }

  private async fetchLinks() {
    try {
      // Links are orders of the upstream's (the ledger holds the orders shoppers made through the widget).
      const page = await this.api.get<OrdersPage>('/upstream-orders', { limit: 100 });
      this.links = page.orders.filter((order) =>
        [order.externalId, order.reference].some((ref) => ref?.startsWith('link_')),
      );
    } catch (error) {
      this.listError = (error as Error).message;
    }
  }

  private async create(event: SubmitEvent) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const value = (name: string) => (data.get(name) ?? '').toString().trim();
    this.error = '';
    this.created = undefined;
    try {
      this.created = await this.api.send<Created>('POST', '/payment-links', {
        name: value('name'),
        ...(value('note') ? { note: value('note') } : {}),
        currency: value('currency').toUpperCase(),
        amount: value('amount'),
      });
      form.reset();
      void this.fetchLinks();
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  private async copy(link: string) {
    try {
      await navigator.clipboard.writeText(link);
      this.copied = 'Copied to the clipboard.';
    } catch {
      this.copied = 'The browser refused the clipboard: select the link and copy it.';
    }
  }

  override render() {
    const canWrite = this.api.canWrite;
    const why = canWrite ? nothing : 'why-not';
    return html`<h1>Payment links</h1>
      ${canWrite ? nothing : html`<p class="notice" id="why-not">${readOnlyReason(this.api.session.credential.name)}</p>`}
      <form class="filters" @submit=${this.create}>
        <label class="grow">Name <input name="name" required maxlength="200" ?disabled=${!canWrite} aria-describedby=${why} /></label>
        <label class="grow">Internal note <input name="note" maxlength="2000" ?disabled=${!canWrite} aria-describedby=${why} /></label>
        <label>Amount <input name="amount" required inputmode="decimal" pattern="[0-9]+([.][0-9]{1,8})?" size="8" ?disabled=${!canWrite} aria-describedby=${why} /></label>
        <label>Currency <input name="currency" required value="EUR" size="5" maxlength="5" ?disabled=${!canWrite} aria-describedby=${why} /></label>
        <button type="submit" ?disabled=${!canWrite} aria-describedby=${why}>Create link</button>
      </form>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${
        this.created
          ? html`<div class="panel" role="status">
            <p>Made: <a href=${this.created.link} rel="noreferrer" class="mono made-link">${this.created.link}</a></p>
            <div class="row"><button type="button" @click=${() => this.copy(this.created?.link ?? '')}>Copy link</button>
              <span>${this.copied}</span></div>
          </div>`
          : nothing
      }
      <h2>Links made</h2>
      ${this.listError ? html`<p class="error">${this.listError}</p>` : nothing}
      ${
        !this.links
          ? html`<p class="muted">Loading…</p>`
          : this.links.length === 0
            ? html`<p class="muted">No payment link yet.</p>`
            : html`<table class="stack">
              <thead><tr><th>Name</th><th>Amount</th><th>Made</th><th>Status</th><th>Paid</th><th>Link</th></tr></thead>
              <tbody>${this.links.map(
                (order) => html`<tr>
                  <td data-label="Name"><a href="#/orders/${encodeURIComponent(orderKey(order))}">${order.purchase?.name ?? '—'}</a></td>
                  <td data-label="Amount">${amount(order.purchase?.price, order.purchase?.currency)}</td>
                  <td data-label="Made">${when(order.createdAt)}</td>
                  <td data-label="Status">${order.status ?? '—'}</td>
                  <td data-label="Paid">${order.paid ? amount(order.paid.amount, order.paid.currency) : '—'}</td>
                  <td data-label="Link">${order.link ? html`<button class="secondary" type="button" @click=${() => this.copy(order.link ?? '')}>Copy</button>` : '—'}</td>
                </tr>`,
              )}</tbody>
            </table>`
      }`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'cc-links-page': LinksPageElement;
  }
}
