/** The storefront's shared frame: header with nav and the SANDBOX badge, footer, and per-page metadata. */

export interface PageMeta {
  /** The page title (the store name is appended). */
  title: string;
  /** Which nav item is current. */
  nav?: string;
  /** Bundled client scripts from `demo/client/` (names without `.ts`). */
  scripts?: string[];
  /** Loads the widget's script-tag bundle from the backend. */
  widget?: boolean;
  /** Extra raw `<head>` markup (e.g. an import map); rarely needed. */
  head?: string;
}

export const storeName = 'Northwind Supply';

const navItems: Array<{ id: string; href: string; label: string }> = [
  { id: 'shop', href: '/', label: 'Shop' },
  { id: 'buy', href: '/buy', label: 'Buy crypto' },
  { id: 'sell', href: '/sell', label: 'Sell crypto' },
  { id: 'deposit', href: '/deposit', label: 'Deposit' },
  { id: 'orders', href: '/console', label: 'Merchant console' },
  { id: 'theming', href: '/theming', label: 'Theming' },
  { id: 'embed', href: '/embed', label: 'Embed examples' },
];

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => escapes[char] ?? char);
}

/** Reads the `<!-- page: {json} -->` header of a page fragment and returns it with the rest of the markup. */
export function parsePage(source: string, file: string): { meta: PageMeta; body: string } {
  const match = /^\s*<!--\s*page:\s*(\{[\s\S]*?\})\s*-->/.exec(source);
  if (!match?.[1]) throw new Error(`${file}: missing the <!-- page: {…} --> header`);
  const meta = JSON.parse(match[1]) as PageMeta;
  if (typeof meta.title !== 'string') throw new Error(`${file}: page header needs a "title"`);
  return { meta, body: source.slice(match[0].length) };
}

/** Markup several pages share, included with `{{> name}}`. */
const partials: Record<string, string> = {
  // The element's events as they fire (filled by demo/client/lib/event-log.ts).
  'event-log': `<div class="card">
  <h3>Events</h3>
  <p class="small muted" id="event-log-empty">The element's events appear here as they fire.</p>
  <ol class="event-log" id="event-log" aria-live="polite"></ol>
</div>`,
};

/**
 * Includes `{{> name}}` partials and fills `{{name}}` placeholders with HTML-escaped values; unknown names are
 * left visible so they get noticed.
 */
export function fill(body: string, values: Record<string, string>): string {
  return body
    .replace(/\{\{>\s*([\w-]+)\s*\}\}/g, (whole, name: string) => partials[name] ?? whole)
    .replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
      name in values ? escapeHtml(values[name] ?? '') : whole,
    );
}

export function layout(meta: PageMeta, body: string, options: { mode: 'sandbox' | 'live' }): string {
  const nav = navItems
    .map(
      (item) =>
        `<a href="${item.href}"${item.id === meta.nav ? ' aria-current="page"' : ''}>${item.label}</a>`,
    )
    .join('');
  const scripts = (meta.scripts ?? [])
    .map((name) => `<script type="module" src="/assets/${escapeHtml(name)}.js"></script>`)
    .join('\n    ');
  const widget = meta.widget ? '<script type="module" src="/widget/crypto-checkout.js"></script>' : '';
  const sandbox = options.mode === 'sandbox';
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light" />
    <title>${escapeHtml(meta.title)} · ${storeName}</title>
    <link rel="icon" href="/assets/favicon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="/assets/styles.css" />
    ${meta.head ?? ''}
    ${widget}
    ${scripts}
  </head>
  <body>
    ${
      sandbox
        ? `<div class="sandbox-bar" role="note">
      <strong>Sandbox.</strong> This store runs on the offline sandbox: no real money, no account needed.
      <a href="/sandbox/">What the sandbox simulates</a>
    </div>`
        : ''
    }
    <header class="site-header">
      <div class="container header-row">
        <a class="brand" href="/"><span class="brand-mark" aria-hidden="true"></span>${storeName}</a>
        ${sandbox ? '<a class="badge badge-sandbox" href="/sandbox/" title="Running on the sandbox: no real money">SANDBOX</a>' : ''}
        <nav class="site-nav" aria-label="Main">${nav}</nav>
      </div>
    </header>
    <main class="container" id="main">
${body}
    </main>
    <footer class="site-footer">
      <div class="container">
        A demo storefront for crypto-checkout: the
        <code>&lt;crypto-checkout&gt;</code> element, its backend and ${sandbox ? 'the offline sandbox of the upstream service' : 'the live upstream service'}.
        <a href="/api/docs">API reference</a>
      </div>
    </footer>
  </body>
</html>
`;
}
