/**
 * Health: each readiness check (`/readyz`), the upstream budget's use (`/upstream-budget`: the limit, tokens held
 * now and at the peak, calls granted, waited, refused), the quote engine's counts (quotes priced upstream, derived),
 * and the outbox: how many deliveries wait and the oldest.
 */
import { html, LitElement, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { OutboxEvent } from '../admin-types.ts';
import type { ConsoleApi } from '../api.ts';
import { when } from '../format.ts';
import { pageStyles } from '../styles.ts';

interface Check {
  status: 'ok' | 'failing' | 'skipped';
  required: boolean;
  latencyMs: number | null;
  lastError: { message: string; at: string } | null;
  detail?: string;
}

interface Readiness {
  ready: boolean;
  failing: string[];
  degraded: string[];
  instance: string;
  storage: { kind: string };
  checks: Record<string, Check>;
}

interface QuoteEngineStats {
  enabled: boolean;
  derived: number;
  upstream: number;
  busy: number;
  derivedWhileUpstreamDown: number;
  maxDrift: number;
}

interface BudgetUse {
  perSecond: number;
  inWindow: number;
  maxInWindow: number;
  inFlight: number;
  queued: number;
  granted: number;
  waited: number;
  refused: number;
  throttledByUpstream: number;
}

/** The most pending events the backlog is counted over (the events list's limit). */
const backlogWindow = 200;

@customElement('cc-health-page')
export class HealthPageElement extends LitElement {
  static override styles = pageStyles;

  /** The signed-in console's calls. */
  @property({ attribute: false }) api!: ConsoleApi;

  @state() private readiness: Readiness | undefined;
  @state() private engine: QuoteEngineStats | undefined;
  /** null: the backend spends no upstream budget. */
  @state() private budget: BudgetUse | null | undefined;
  @state() private pending: OutboxEvent[] | undefined;
  @state() private error = '';

  override connectedCallback(): void {
    super.connectedCallback();
    void this.refresh();
  }

  private async refresh() {
    this.error = '';
    const [readiness, budget, engine, pending] = await Promise.allSettled([
      this.api.readiness<Readiness>(),
      this.api.get<{ budget: BudgetUse | null }>('/upstream-budget'),
      this.api.get<QuoteEngineStats>('/quote-engine'),
      this.api.get<{ events: OutboxEvent[] }>('/events', { state: 'pending', limit: backlogWindow }),
    ]);
    if (readiness.status === 'fulfilled') this.readiness = readiness.value;
    if (budget.status === 'fulfilled') this.budget = budget.value.budget;
    if (engine.status === 'fulfilled') this.engine = engine.value;
    if (pending.status === 'fulfilled') this.pending = pending.value.events;
    const failed = [readiness, budget, engine, pending].find((r) => r.status === 'rejected');
    if (failed?.status === 'rejected') this.error = (failed.reason as Error).message;
  }

  private renderBudget() {
    const b = this.budget;
    if (b === undefined) return html`<p class="muted">Loading…</p>`;
    if (b === null) return html`<p class="muted">No upstream budget: this backend makes no ramp calls.</p>`;
    return html`<dl>
      <dt>In use now</dt><dd>${b.inWindow} of ${b.perSecond} per second</dd>
      <dt>Peak</dt><dd>${b.maxInWindow} of ${b.perSecond}</dd>
      <dt>Calls granted</dt><dd>${b.granted}</dd>
      <dt>Calls that waited</dt><dd>${b.waited}</dd>
      <dt>Refused: budget spent</dt><dd>${b.refused}</dd>
      <dt>Throttled by the upstream</dt><dd>${b.throttledByUpstream}</dd>
    </dl>`;
  }

  private renderBacklog() {
    if (!this.pending) return html`<p class="muted">Loading…</p>`;
    const deliveries = this.pending.flatMap((event) =>
      event.deliveries.filter((d) => d.state === 'pending').map((d) => ({ event, delivery: d })),
    );
    const oldest = [...this.pending].sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0];
    return html`<dl>
      <dt>Events waiting</dt><dd>${this.pending.length}${this.pending.length === backlogWindow ? ' or more' : ''}</dd>
      <dt>Deliveries waiting</dt><dd>${deliveries.length}</dd>
      <dt>Oldest pending</dt>
      <dd>${oldest ? html`${when(oldest.createdAt)} · ${oldest.type} ${oldest.orderId ? html`· <a href="#/orders/${encodeURIComponent(oldest.orderId)}">${oldest.orderId}</a>` : nothing}` : 'none: every event is delivered'}</dd>
    </dl>`;
  }

  override render() {
    const r = this.readiness;
    return html`<h1>Health</h1>
      <div class="row"><button class="secondary" type="button" @click=${this.refresh}>Check again</button></div>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <h2>Readiness</h2>
      ${
        r
          ? html`<p class=${r.ready ? 'ok' : 'error'}><strong>${r.ready ? 'Ready' : 'Not ready'}</strong>
              · instance ${r.instance} · storage ${r.storage.kind}
              ${r.degraded.length ? html` · degraded: ${r.degraded.join(', ')}` : nothing}</p>
            <table class="stack">
              <thead><tr><th>Check</th><th>Status</th><th>Required</th><th>Latency</th><th>Last error</th></tr></thead>
              <tbody>${Object.entries(r.checks).map(
                ([name, check]) => html`<tr>
                  <td data-label="Check">${name}</td>
                  <td data-label="Status" class=${check.status === 'failing' ? 'error' : check.status === 'ok' ? 'ok' : 'muted'}>${check.status}</td>
                  <td data-label="Required">${check.required ? 'yes' : 'no'}</td>
                  <td data-label="Latency">${check.latencyMs === null ? '—' : `${Math.round(check.latencyMs)} ms`}</td>
                  <td data-label="Last error">${check.lastError ? `${check.lastError.message} (${when(check.lastError.at)})` : '—'}</td>
                </tr>`,
              )}</tbody>
            </table>`
          : html`<p class="muted">Loading…</p>`
      }
      <h2>Upstream budget</h2>
      ${this.renderBudget()}
      <h2>Upstream use</h2>
      ${
        this.engine
          ? html`<dl>
            <dt>Quotes priced upstream</dt><dd>${this.engine.upstream}</dd>
            <dt>Quotes derived here</dt><dd>${this.engine.derived}</dd>
            <dt>Refused: budget spent</dt><dd>${this.engine.busy}</dd>
            <dt>Derived while upstream down</dt><dd>${this.engine.derivedWhileUpstreamDown}</dd>
          </dl><p class="muted">Since this instance started.</p>`
          : html`<p class="muted">Loading…</p>`
      }
      <h2>Outbox</h2>
      ${this.renderBacklog()}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'cc-health-page': HealthPageElement;
  }
}
