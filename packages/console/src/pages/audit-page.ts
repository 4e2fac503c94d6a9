/** The audit log: every admin write and console sign-in (who, what, when, from where, how it ended), newest first. */
import { html, LitElement } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { AuditEntry } from '../admin-types.ts';
import type { ConsoleApi } from '../api.ts';
import { when } from '../format.ts';
import { pageStyles } from '../styles.ts';

@customElement('cc-audit-page')
export class AuditPageElement extends LitElement {
  static override styles = pageStyles;

  /** The signed-in console's calls. */
  @property({ attribute: false }) api!: ConsoleApi;

  @state() private entries: AuditEntry[] = [];
  @state() private next: string | null = null;
  @state() private credential = '';
  @state() private error = '';
  @state() private loading = false;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.fetchEntries(false);
  }

  private async fetchEntries(more: boolean) {
    this.loading = true;
    this.error = '';
    try {
      const page = await this.api.get<{ entries: AuditEntry[]; next: string | null }>('/audit', {
        limit: 50,
        credential: this.credential,
        before: more ? this.next : undefined,
      });
      this.entries = more ? [...this.entries, ...page.entries] : page.entries;
      this.next = page.next;
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.loading = false;
    }
  }

  private filter(event: SubmitEvent) {
    event.preventDefault();
    this.credential = (new FormData(event.currentTarget as HTMLFormElement).get('credential') ?? '')
      .toString()
      .trim();
    void this.fetchEntries(false);
  }

  override render() {
    return html`<h1>Audit log</h1>
      <form class="filters" @submit=${this.filter}>
        <label>Credential <input name="credential" .value=${this.credential} autocomplete="off" /></label>
        <button type="submit">Filter</button>
      </form>
      <p role="status" class=${this.error ? 'error' : 'muted'}>
        ${this.error || (this.loading ? 'Loading…' : `${this.entries.length} entr${this.entries.length === 1 ? 'y' : 'ies'}`)}
      </p>
      <table class="stack">
        <thead><tr><th>When</th><th>Who</th><th>What</th><th>Target</th><th>From</th><th>Outcome</th></tr></thead>
        <tbody>${this.entries.map(
          (entry) => html`<tr>
            <td data-label="When">${when(entry.createdAt)}</td>
            <td data-label="Who">${entry.credential} (${entry.scope})</td>
            <td data-label="What" class="mono">${entry.action}</td>
            <td data-label="Target" class="mono">${entry.target ?? '—'}</td>
            <td data-label="From" class="mono">${entry.clientIp}</td>
            <td data-label="Outcome" class=${entry.status && entry.status < 300 ? 'ok' : 'error'}>
              ${entry.status === null ? 'no outcome recorded' : entry.status === 403 ? '403 refused (read scope)' : entry.status}
            </td>
          </tr>`,
        )}</tbody>
      </table>
      <div class="row pager">
        <button class="secondary" type="button" ?disabled=${!this.next || this.loading}
          @click=${() => this.fetchEntries(true)}>Older entries</button>
      </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'cc-audit-page': AuditPageElement;
  }
}
