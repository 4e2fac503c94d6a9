/**
 * The merchant's Orders page: the order list (paging, id search, dates) with each order's payments and log, and
 * the payment-link form. Everything goes through the demo server's `/demo-admin/*` proxy, which adds the admin
 * credential server-side. With a read credential the page lists, and says why it cannot write.
 */
import { copyText, flash } from './lib/copy.ts';
import { formatDate, formatMoney } from './lib/money.ts';

type Json = Record<string, unknown>;

interface Pagination {
  page?: number;
  currentPage?: number;
  totalPages?: number;
  totalItems?: number;
  itemsPerPage?: number;
}

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!;
const body = $<HTMLTableSectionElement>('#orders-body');
const filters = $<HTMLFormElement>('#orders-filters');

let page = 1;
let totalPages = 1;

/** Why writes are refused (the credential has the read scope), or undefined when they are allowed. */
let readOnly: string | undefined;

/** The backend's reason for a refused write, from its error envelope. */
async function refusalOf(response: Response): Promise<string> {
  const json = (await response.json().catch(() => ({}))) as Json;
  return str(obj(json['error'])?.['message']) ?? `HTTP ${response.status}`;
}

const str = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
const obj = (value: unknown): Json | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
/** A currency may be a code or an upstream currency object (`{ symbol, … }`). */
const currencyOf = (value: unknown): string | undefined => str(value) ?? str(obj(value)?.['symbol']);

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & { dataset?: Record<string, string> } = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  const { dataset, ...rest } = props;
  Object.assign(node, rest);
  if (dataset) Object.assign(node.dataset, dataset);
  node.append(...children);
  return node;
}

function statusPill(status: string | undefined): HTMLElement {
  const value = status ?? 'unknown';
  return element('span', { className: 'status', dataset: { status: value } }, value.replace(/_/g, ' '));
}

function paymentsList(payments: Json[]): HTMLElement {
  if (payments.length === 0) return element('p', { className: 'small muted' }, 'No payments yet.');
  const items = payments.map((payment) => {
    const amount = str(payment['receivedAmount']) ?? str(payment['amount']) ?? '?';
    const currency = currencyOf(payment['receivedCurrency']) ?? currencyOf(payment['currency']) ?? '';
    const tx = str(payment['txHash']);
    const when = str(payment['confirmedAt']) ?? str(payment['createdAt']);
    return element(
      'li',
      {},
      element('strong', {}, `${amount} ${currency}`),
      ` ${str(payment['status']) ?? ''} ${when ? `· ${formatDate(when)}` : ''}`,
      tx ? element('div', { className: 'mono muted' }, tx) : '',
    );
  });
  return element('ul', { className: 'log' }, ...items);
}

function updatesList(updates: Json[]): HTMLElement {
  if (updates.length === 0) return element('p', { className: 'small muted' }, 'No updates yet.');
  const items = updates.map((update) =>
    element(
      'li',
      {},
      element(
        'span',
        { className: 'muted' },
        `${formatDate(str(update['timestamp']) ?? str(update['at']))} `,
      ),
      str(update['message']) ?? str(update['status']) ?? JSON.stringify(update),
    ),
  );
  return element('ol', { className: 'log' }, ...items);
}

/** The shop's own shipments (its receiver marks an order shipped on `order.paid`), by our order id. */
let shipped = new Map<string, Json>();

async function loadShipments(): Promise<void> {
  const response = await fetch('/shop/shipments').catch(() => undefined);
  const json = response?.ok ? ((await response.json()) as Json) : {};
  shipped = new Map(list(json['shipments']).map((s) => [str(s['orderId']) ?? '', s]));
}

/** The events sent to the shop about one order, each with its delivery state and a re-send button. */
async function eventsList(reference: string, into: HTMLElement): Promise<void> {
  const response = await fetch(`/demo-admin/events?orderId=${encodeURIComponent(reference)}`);
  const events = response.ok ? list(((await response.json()) as Json)['events']) : [];
  if (events.length === 0) {
    into.replaceChildren(element('p', { className: 'small muted' }, 'No events yet.'));
    return;
  }
  const items = events.map((event) => {
    const id = str(event['id']) ?? '';
    const deliveries = list(event['deliveries']).map((d) => {
      const error = str(d['lastError']);
      return element(
        'div',
        { className: 'small', dataset: { delivery: str(d['state']) ?? '' } },
        `${str(d['state'])} · ${str(d['attempts'])} attempt(s)${error ? ` · ${error}` : ''}`,
      );
    });
    const resend = element('button', { type: 'button', className: 'button small' }, 'Re-send');
    if (readOnly) {
      resend.disabled = true;
      resend.title = readOnly;
      resend.setAttribute('aria-describedby', 'admin-scope');
    }
    resend.addEventListener('click', async () => {
      resend.disabled = true;
      const response = await fetch(`/demo-admin/events/${encodeURIComponent(id)}/resend`, { method: 'POST' });
      if (!response.ok) {
        resend.after(
          element('p', { className: 'small notice-error', role: 'alert' }, await refusalOf(response)),
        );
        return;
      }
      flash(resend, 'Queued');
      await eventsList(reference, into);
    });
    return element(
      'li',
      { dataset: { eventType: str(event['type']) ?? '' } },
      element('strong', {}, str(event['type']) ?? ''),
      ` ${formatDate(str(event['createdAt']))} `,
      resend,
      ...deliveries,
    );
  });
  into.replaceChildren(element('ul', { className: 'log' }, ...items));
}

function row(order: Json): HTMLTableRowElement {
  const id = str(order['id']) ?? '?';
  // The backend's own order id (what the widget and the return URL carry), when the order came from it.
  const reference = str(order['externalId']);
  const purchase = obj(order['purchase']) ?? obj(order['product']);
  const name = str(order['name']) ?? str(purchase?.['name']) ?? '';
  const note = str(order['note']) ?? str(purchase?.['notes']);
  const amount = str(order['amount']) ?? str(purchase?.['price']);
  const currency = currencyOf(order['currency']) ?? currencyOf(purchase?.['currency']);
  const link = str(order['link']);
  const payments = list(order['payments']);
  const updates = list(order['updates']);
  const events = element('div', { className: 'order-events' });

  const details = element(
    'details',
    { className: 'order-details' },
    element(
      'summary',
      {},
      `${payments.length} payment${payments.length === 1 ? '' : 's'}, ${updates.length} update${updates.length === 1 ? '' : 's'}`,
    ),
    element('h3', { className: 'small detail-heading' }, 'Payments'),
    paymentsList(payments),
    element('h3', { className: 'small detail-heading' }, 'Updates'),
    updatesList(updates),
    ...(reference
      ? [element('h3', { className: 'small detail-heading' }, 'Events sent to the shop'), events]
      : []),
    note ? element('p', { className: 'small' }, element('strong', {}, 'Internal note: '), note) : '',
    link
      ? element(
          'p',
          { className: 'small' },
          element('a', { href: link, target: '_blank', rel: 'noopener' }, 'Payment page'),
        )
      : '',
  );
  // The events are read when the details are opened, not for every row.
  if (reference) details.addEventListener('toggle', () => details.open && void eventsList(reference, events));
  const shipment = reference ? shipped.get(reference) : undefined;
  const tr = element(
    'tr',
    { dataset: { orderId: id, ...(reference ? { externalId: reference } : {}) } },
    element(
      'td',
      { className: 'mono' },
      id,
      reference ? element('div', { className: 'muted small', title: "The shop's reference" }, reference) : '',
    ),
    element('td', {}, formatDate(str(order['createdAt']))),
    element('td', {}, name),
    element('td', { className: 'num' }, formatMoney(amount, currency)),
    element(
      'td',
      {},
      statusPill(str(order['status'])),
      shipment ? element('span', { className: 'status', dataset: { status: 'shipped' } }, 'shipped') : '',
    ),
    element('td', {}, details),
  );
  return tr;
}

function query(): URLSearchParams {
  const data = new FormData(filters);
  const params = new URLSearchParams({ page: String(page) });
  for (const [key, value] of data) {
    if (typeof value !== 'string' || value === '') continue;
    if (key === 'startDate') params.set(key, new Date(`${value}T00:00:00`).toISOString());
    else if (key === 'endDate') params.set(key, new Date(`${value}T23:59:59.999`).toISOString());
    else params.set(key, value.trim());
  }
  return params;
}

async function load(): Promise<void> {
  const error = $('#orders-error');
  error.hidden = true;
  body.setAttribute('aria-busy', 'true');
  const params = query();
  // Keep the filters in the address bar, so a filtered view can be bookmarked or linked to.
  history.replaceState(null, '', `?${params}`);
  try {
    const [response] = await Promise.all([fetch(`/demo-admin/orders?${params}`), loadShipments()]);
    const json = (await response.json()) as Json;
    if (!response.ok) {
      const problem = obj(json['error']);
      throw new Error(str(problem?.['message']) ?? `HTTP ${response.status}`);
    }
    const orders = list(json['orders']);
    const pagination = (obj(json['pagination']) ?? {}) as Pagination;
    totalPages = Math.max(1, pagination.totalPages ?? 1);
    body.replaceChildren(...orders.map(row));
    $('#orders-empty').hidden = orders.length > 0;
    $('#orders-page').textContent =
      `Page ${pagination.page ?? pagination.currentPage ?? page} of ${totalPages}` +
      (pagination.totalItems !== undefined
        ? ` · ${pagination.totalItems} order${pagination.totalItems === 1 ? '' : 's'}`
        : '');
  } catch (caught) {
    body.replaceChildren();
    error.textContent = `The orders could not be loaded: ${caught instanceof Error ? caught.message : caught}`;
    error.hidden = false;
  } finally {
    body.setAttribute('aria-busy', 'false');
    $<HTMLButtonElement>('#orders-prev').disabled = page <= 1;
    $<HTMLButtonElement>('#orders-next').disabled = page >= totalPages;
  }
}

// Filters from the address bar (e.g. the thank-you page links to `?searchId=…`).
const initial = new URLSearchParams(location.search);
page = Math.max(1, Number(initial.get('page')) || 1);
for (const name of ['searchId', 'limit'] as const) {
  const value = initial.get(name);
  const field = filters.elements.namedItem(name);
  if (value && (field instanceof HTMLInputElement || field instanceof HTMLSelectElement)) field.value = value;
}
for (const name of ['startDate', 'endDate'] as const) {
  const value = initial.get(name);
  const field = filters.elements.namedItem(name);
  if (value && field instanceof HTMLInputElement) field.value = value.slice(0, 10);
}

filters.addEventListener('submit', (event) => {
  event.preventDefault();
  page = 1;
  void load();
});
filters.addEventListener('reset', () => {
  page = 1;
  setTimeout(() => void load());
});
$('#orders-prev').addEventListener('click', () => {
  page = Math.max(1, page - 1);
  void load();
});
$('#orders-next').addEventListener('click', () => {
  page = Math.min(totalPages, page + 1);
  void load();
});
$('#orders-refresh').addEventListener('click', () => void load());

/** Which credential the page acts with: a read one lists orders, and the page says why it cannot write. */
async function loadScope(): Promise<void> {
  const response = await fetch('/demo-admin/credential').catch(() => undefined);
  if (!response?.ok) return;
  const credential = (await response.json()) as Json;
  if (credential['scope'] !== 'read') return;
  readOnly =
    `Read-only: this page uses the admin credential "${str(credential['name'])}", whose scope is read. ` +
    'It lists orders and events; making payment links and re-sending events change state and need a write credential.';
  const notice = $('#admin-scope');
  notice.textContent = readOnly;
  notice.hidden = false;
  const submit = $<HTMLButtonElement>('#link-submit');
  submit.disabled = true;
  submit.setAttribute('aria-describedby', 'admin-scope');
  $('#link-status').textContent = 'Needs a write credential.';
}

void loadScope().finally(() => void load());

// Payment links
const linkForm = $<HTMLFormElement>('#link-form');
linkForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const status = $('#link-status');
  const submit = $<HTMLButtonElement>('#link-submit');
  const data = new FormData(linkForm);
  const value = (name: string) => String(data.get(name) ?? '').trim();
  const payload: Json = { name: value('name'), currency: value('currency'), amount: value('amount') };
  if (value('note')) payload['note'] = value('note');
  if (value('imageUrl')) payload['imageUrl'] = value('imageUrl');
  if (!payload['name'] || !/^\d+(\.\d{1,8})?$/.test(String(payload['amount']))) {
    status.textContent = 'A name and an amount like 49.00 are needed.';
    return;
  }
  submit.disabled = true;
  status.textContent = 'Creating…';
  try {
    const response = await fetch('/demo-admin/payment-links', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    const json = (await response.json()) as Json;
    if (!response.ok) {
      const problem = obj(json['error']);
      const issues = list(problem?.['issues'])
        .map((issue) => `${str(issue['path'])}: ${str(issue['message'])}`)
        .join('; ');
      throw new Error(issues || str(problem?.['message']) || `HTTP ${response.status}`);
    }
    $<HTMLInputElement>('#link-url').value = str(json['link']) ?? '';
    $('#link-meta').textContent =
      `Order ${str(json['orderId']) ?? ''}` +
      (json['expiresAt'] ? `, open until ${formatDate(str(json['expiresAt']))}` : '');
    $('#link-result').hidden = false;
    status.textContent = 'Link created.';
    void load();
  } catch (caught) {
    status.textContent = `Could not create the link: ${caught instanceof Error ? caught.message : caught}`;
  } finally {
    submit.disabled = false;
  }
});
const linkCopy = $<HTMLButtonElement>('#link-copy');
linkCopy.addEventListener('click', async () => {
  // Not `event.currentTarget`: the event has finished dispatching (and forgotten it) by the time the copy settles.
  const ok = await copyText($<HTMLInputElement>('#link-url').value);
  flash(linkCopy, ok ? 'Copied' : 'Copy failed');
});
$('#link-open').addEventListener('click', () => {
  const url = $<HTMLInputElement>('#link-url').value;
  if (url) window.open(url, '_blank', 'noopener');
});
