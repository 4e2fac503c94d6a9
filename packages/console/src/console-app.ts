/**
 * `<cc-console base="/mount">`: the merchant console's shell. Signed out, a sign-in form (an admin credential, kept
 * by the backend as an HttpOnly session cookie, never by this page). Signed in, the navigation, who is signed in
 * with which scope, sign-out, and the page of the location's hash (`#/orders`, `#/orders/<id>`, …), each page a
 * chunk of its own loaded when first opened.
 */
import { css, html, LitElement, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { ApiError, ConsoleApi, type Session, SessionApi } from './api.ts';
import { readOnlyReason } from './format.ts';
import { pageStyles } from './styles.ts';

interface Route {
  page: string;
  param?: string;
}

/** Each page: its hash, its name in the navigation, its element, and the chunk that defines it. */
const pages = {
  orders: { label: 'Orders', tag: 'cc-orders-page', load: () => import('./pages/orders-page.ts') },
  order: { label: 'Order', tag: 'cc-order-page', load: () => import('./pages/order-page.ts') },
  attention: {
    label: 'Needs attention',
    tag: 'cc-attention-page',
    load: () => import('./pages/attention-page.ts'),
  },
  links: { label: 'Payment links', tag: 'cc-links-page', load: () => import('./pages/links-page.ts') },
  endpoints: {
    label: 'Webhook endpoints',
    tag: 'cc-endpoints-page',
    load: () => import('./pages/endpoints-page.ts'),
  },
  audit: { label: 'Audit log', tag: 'cc-audit-page', load: () => import('./pages/audit-page.ts') },
  health: { label: 'Health', tag: 'cc-health-page', load: () => import('./pages/health-page.ts') },
} as const;
type PageName = keyof typeof pages;
const navOrder: PageName[] = ['orders', 'attention', 'links', 'endpoints', 'audit', 'health'];

function routeOf(hash: string): Route {
  const [, page = 'orders', param] = /^#\/([a-z]+)(?:\/(.+))?$/.exec(hash) ?? [];
  if (page === 'orders' && param) return { page: 'order', param: decodeURIComponent(param) };
  return { page: page in pages ? page : 'orders' };
}

@customElement('cc-console')
export class ConsoleApp extends LitElement {
  static override styles = [
    pageStyles,
    css`
      header {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem 1rem;
        align-items: center;
        justify-content: space-between;
        padding: 0.75rem 1rem;
        border-bottom: 1px solid var(--_line);
      }
      nav ul {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 0.75rem;
        list-style: none;
        margin: 0;
        padding: 0;
      }
      nav a {
        display: inline-block;
        padding: 0.3rem 0.2rem;
      }
      nav a[aria-current='page'] {
        font-weight: 700;
        text-decoration-thickness: 3px;
      }
      main {
        padding: 1rem;
        max-width: 72rem;
        margin: 0 auto;
      }
      main:focus {
        outline: none;
      }
      .sign-in {
        max-width: 26rem;
        margin: 3rem auto;
        padding: 0 1rem;
      }
      .sign-in form {
        display: grid;
        gap: 0.75rem;
      }
      .who {
        font-size: 0.9rem;
      }
    `,
  ];

  /** Where the backend is mounted (`/checkout`), empty at the root: the page writes it. */
  @property() base = '';

  @state() private session: Session | null | undefined = undefined;
  @state() private route: Route = routeOf(location.hash);
  @state() private signInError = '';
  @state() private busy = false;
  @state() private loaded = new Set<string>();
  private api: ConsoleApi | undefined;

  private readonly onHash = () => {
    this.route = routeOf(location.hash);
    void this.load();
    this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('main')?.focus());
  };

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener('hashchange', this.onHash);
    new SessionApi(this.base)
      .current()
      .then((session) => this.signedIn(session))
      .catch(() => {
        this.session = null;
      });
  }

  override disconnectedCallback(): void {
    removeEventListener('hashchange', this.onHash);
    super.disconnectedCallback();
  }

  private signedIn(session: Session) {
    this.api = new ConsoleApi(this.base, session, () => {
      this.session = null;
      this.signInError = 'Your session has ended: sign in again.';
    });
    this.session = session;
    void this.load();
  }

  private async load() {
    const page = pages[this.route.page as PageName];
    if (!page || this.loaded.has(page.tag)) return;
    await page.load();
    this.loaded = new Set([...this.loaded, page.tag]);
  }

  private async signIn(event: SubmitEvent) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const token = (new FormData(form).get('token') ?? '').toString().trim();
    if (!token) {
      this.signInError = 'Paste an admin credential.';
      return;
    }
    this.busy = true;
    this.signInError = '';
    try {
      this.signedIn(await new SessionApi(this.base).signIn(token));
      form.reset();
    } catch (error) {
      this.signInError =
        error instanceof ApiError && error.status === 401
          ? 'That is not an admin credential of this backend.'
          : error instanceof Error
            ? error.message
            : String(error);
    } finally {
      this.busy = false;
    }
  }

  private async signOut() {
    await new SessionApi(this.base).signOut().catch(() => undefined);
    this.api = undefined;
    this.session = null;
    this.signInError = '';
  }

  private renderSignIn() {
    return html`<main class="sign-in">
      <h1>Merchant console</h1>
      <p class="muted">Sign in with one of this backend’s admin credentials (ADMIN_CREDENTIALS).</p>
      <form @submit=${this.signIn} novalidate>
        <label>Admin credential
          <input name="token" type="password" autocomplete="off" spellcheck="false" required />
        </label>
        <button type="submit" ?disabled=${this.busy}>Sign in</button>
        <p class="error" role="alert">${this.signInError}</p>
      </form>
    </main>`;
  }

  private renderPage() {
    const page = pages[this.route.page as PageName];
    if (!page || !this.api || !this.loaded.has(page.tag)) return html`<p role="status">Loading…</p>`;
    switch (this.route.page) {
      case 'order':
        return html`<cc-order-page .api=${this.api} .orderId=${this.route.param ?? ''}></cc-order-page>`;
      case 'attention':
        return html`<cc-attention-page .api=${this.api}></cc-attention-page>`;
      case 'links':
        return html`<cc-links-page .api=${this.api}></cc-links-page>`;
      case 'endpoints':
        return html`<cc-endpoints-page .api=${this.api}></cc-endpoints-page>`;
      case 'audit':
        return html`<cc-audit-page .api=${this.api}></cc-audit-page>`;
      case 'health':
        return html`<cc-health-page .api=${this.api}></cc-health-page>`;
      default:
        return html`<cc-orders-page .api=${this.api}></cc-orders-page>`;
    }
  }

  override render() {
    if (this.session === undefined) return html`<p role="status">Loading…</p>`;
    if (this.session === null) return this.renderSignIn();
    const { name, scope } = this.session.credential;
    const current = this.route.page === 'order' ? 'orders' : this.route.page;
    return html`<header>
        <nav aria-label="Console">
          <ul>
            ${navOrder.map(
              (name) =>
                html`<li><a href="#/${name}" aria-current=${current === name ? 'page' : nothing}>${pages[name].label}</a></li>`,
            )}
          </ul>
        </nav>
        <div class="row who">
          <span id="who">Signed in as <strong>${name}</strong> (${scope})</span>
          <button class="secondary" type="button" @click=${this.signOut}>Sign out</button>
        </div>
      </header>
      <main tabindex="-1">
        ${scope === 'read' ? html`<p class="notice" id="read-only">${readOnlyReason(name)}</p>` : nothing}
        ${this.renderPage()}
      </main>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'cc-console': ConsoleApp;
  }
}
