/**
 * Webhook endpoints: the configured (MERCHANT_WEBHOOK_URL) and added ones, each with the event types it receives,
 * paused or not; adding one shows its secret once; pause, rotate the secret, send a test event, replay a time
 * range, and read its deliveries. Writes need a write credential (each is audited by the backend).
 */
import { html, LitElement, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { WebhookEndpoint } from '../admin-types.ts';
import type { ConsoleApi } from '../api.ts';
import { dayBound, readOnlyReason, when } from '../format.ts';
import { pageStyles } from '../styles.ts';

interface Attempt {
  at: string;
  status: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

interface Delivery {
  eventId?: string;
  type?: string;
  state?: string;
  attempts?: number | Attempt[];
  lastStatus?: number | null;
  lastError?: string | null;
  createdAt?: string;
}

@customElement('cc-endpoints-page')
export class EndpointsPageElement extends LitElement {
  static override styles = pageStyles;

  /** The signed-in console's calls. */
  @property({ attribute: false }) api!: ConsoleApi;

  @state() private endpoints: WebhookEndpoint[] | undefined;
  @state() private error = '';
  @state() private message = '';
  /** A secret just made (added or rotated): shown once, with the endpoint it belongs to. */
  @state() private secret: { endpoint: string; value: string } | undefined;
  @state() private deliveries: { endpoint: string; list: Delivery[] } | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.fetchEndpoints();
  }

  private async fetchEndpoints() {
    try {
      const answer = await this.api.get<{ endpoints: WebhookEndpoint[] }>('/webhook-endpoints');
      this.endpoints = answer.endpoints;
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  /** Runs a change; `what` says it was done (given the change's answer, when it tells more). */
  private async act<T>(what: string | ((answer: T) => string), work: () => Promise<T>) {
    this.message = '';
    this.error = '';
    try {
      const answer = await work();
      this.message = typeof what === 'string' ? what : what(answer);
      await this.fetchEndpoints();
    } catch (error) {
      this.error = `${(error as Error).message}`;
    }
  }

  private add(event: SubmitEvent) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const events = (data.get('events') ?? '')
      .toString()
      .split(/[\s,]+/)
      .filter(Boolean);
    const body = {
      url: (data.get('url') ?? '').toString().trim(),
      events: events.length ? events : ['*'],
      description: (data.get('description') ?? '').toString().trim() || undefined,
    };
    void this.act('Endpoint added.', async () => {
      const made = await this.api.send<{ endpoint: WebhookEndpoint; secret: string }>(
        'POST',
        '/webhook-endpoints',
        body,
      );
      this.secret = { endpoint: made.endpoint.url, value: made.secret };
      form.reset();
    });
  }

  private rotate(endpoint: WebhookEndpoint) {
    void this.act('Secret rotated: the previous one still verifies for a while.', async () => {
      const { secret } = await this.api.send<{ secret: string }>(
        'POST',
        `/webhook-endpoints/${endpoint.id}/rotate-secret`,
      );
      this.secret = { endpoint: endpoint.url, value: secret };
    });
  }

  private replay(event: SubmitEvent, endpoint: WebhookEndpoint) {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const from = dayBound((data.get('from') ?? '').toString(), false);
    const to = dayBound((data.get('to') ?? '').toString(), true);
    void this.act(
      ({ queued }) => `${queued} event(s) queued for ${endpoint.url}.`,
      () =>
        this.api.send<{ queued: number }>('POST', `/webhook-endpoints/${endpoint.id}/replay`, { from, to }),
    );
  }

  private async showDeliveries(endpoint: WebhookEndpoint) {
    try {
      const answer = await this.api.get<{ deliveries: Delivery[] }>(
        `/webhook-endpoints/${endpoint.id}/deliveries`,
      );
      this.deliveries = { endpoint: endpoint.id, list: answer.deliveries };
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  private renderEndpoint(endpoint: WebhookEndpoint) {
    const off = !this.api.canWrite;
    const why = off ? 'why-not' : nothing;
    const id = encodeURIComponent(endpoint.id);
    return html`<section class="panel" aria-label="Endpoint ${endpoint.url}">
      <p><strong class="mono">${endpoint.url}</strong> · ${endpoint.enabled ? html`<span class="ok">enabled</span>` : html`<span class="error">paused</span>`}
        · ${endpoint.source === 'config' ? 'configured (MERCHANT_WEBHOOK_URL)' : `added ${when(endpoint.createdAt)}`}</p>
      <p>Receives: ${endpoint.events.includes('*') ? 'every event' : endpoint.events.join(', ')}
        ${endpoint.description ? html`<br /><span class="muted">${endpoint.description}</span>` : nothing}</p>
      <div class="row">
        <button type="button" ?disabled=${off} aria-describedby=${why}
          @click=${() => this.act(endpoint.enabled ? 'Paused.' : 'Enabled.', () => this.api.send('PATCH', `/webhook-endpoints/${id}`, { enabled: !endpoint.enabled }))}>
          ${endpoint.enabled ? 'Pause' : 'Enable'}</button>
        <button type="button" ?disabled=${off} aria-describedby=${why} @click=${() => this.rotate(endpoint)}>Rotate secret</button>
        <button type="button" ?disabled=${off} aria-describedby=${why}
          @click=${() => this.act('Test event sent.', () => this.api.send('POST', `/webhook-endpoints/${id}/test`))}>Send test event</button>
        <button class="secondary" type="button" @click=${() => this.showDeliveries(endpoint)}>Deliveries</button>
        ${
          endpoint.source === 'api'
            ? html`<button class="secondary" type="button" ?disabled=${off} aria-describedby=${why}
                @click=${() => this.act('Endpoint removed.', () => this.api.send('DELETE', `/webhook-endpoints/${id}`))}>Remove</button>`
            : nothing
        }
      </div>
      <form class="filters" @submit=${(event: SubmitEvent) => this.replay(event, endpoint)}>
        <label>Replay from <input name="from" type="date" required ?disabled=${off} /></label>
        <label>to <input name="to" type="date" required ?disabled=${off} /></label>
        <button type="submit" ?disabled=${off} aria-describedby=${why}>Replay</button>
      </form>
      ${this.deliveries?.endpoint === endpoint.id ? this.renderDeliveries(this.deliveries.list) : nothing}
    </section>`;
  }

  /** The last attempt's status and error, or its excerpt. */
  private lastAnswer(d: Delivery): string {
    const last = Array.isArray(d.attempts) ? (d.attempts.at(-1) as Attempt | undefined) : undefined;
    if (last)
      return [last.status ?? 'no answer', last.error, last.responseExcerpt].filter(Boolean).join(' · ');
    return String(d.lastError ?? d.lastStatus ?? '—');
  }

  private renderDeliveries(list: Delivery[]) {
    if (list.length === 0) return html`<p class="muted">No deliveries yet.</p>`;
    return html`<table class="stack">
      <thead><tr><th>Event</th><th>State</th><th>Attempts</th><th>Last answer</th><th>When</th></tr></thead>
      <tbody>${list.map(
        (d) => html`<tr>
          <td data-label="Event" class="mono">${d.type ?? ''} ${d.eventId ?? ''}</td>
          <td data-label="State">${d.state ?? '—'}</td>
          <td data-label="Attempts">${Array.isArray(d.attempts) ? d.attempts.length : (d.attempts ?? '—')}</td>
          <td data-label="Last answer">${this.lastAnswer(d)}</td>
          <td data-label="When">${when(d.createdAt)}</td>
        </tr>`,
      )}</tbody>
    </table>`;
  }

  override render() {
    const off = !this.api.canWrite;
    const why = off ? 'why-not' : nothing;
    return html`<h1>Webhook endpoints</h1>
      ${off ? html`<p class="notice" id="why-not">${readOnlyReason(this.api.session.credential.name)}</p>` : nothing}
      <p role="status">${this.message}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${
        this.secret
          ? html`<div class="panel" role="status"><p>The signing secret of ${this.secret.endpoint}, shown this once:</p>
              <p class="mono secret">${this.secret.value}</p></div>`
          : nothing
      }
      <h2>Add an endpoint</h2>
      <form class="filters" @submit=${this.add}>
        <label class="grow">URL <input name="url" type="url" required ?disabled=${off} aria-describedby=${why} /></label>
        <label class="grow">Event types (comma-separated; empty: every event)
          <input name="events" placeholder="order.paid, order.expired" ?disabled=${off} aria-describedby=${why} /></label>
        <label class="grow">Description <input name="description" ?disabled=${off} aria-describedby=${why} /></label>
        <button type="submit" ?disabled=${off} aria-describedby=${why}>Add endpoint</button>
      </form>
      <h2>Endpoints</h2>
      ${
        !this.endpoints
          ? html`<p class="muted">Loading…</p>`
          : this.endpoints.length === 0
            ? html`<p class="muted">No endpoint: events are kept in the outbox until one is added.</p>`
            : this.endpoints.map((endpoint) => this.renderEndpoint(endpoint))
      }`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'cc-endpoints-page': EndpointsPageElement;
  }
}
