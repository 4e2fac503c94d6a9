/**
 * The thank-you page the payer returns to (`?orderId=…&status=…`). The URL's status is only a hint anyone could
 * edit, so the page asks the shop's server (`/demo-api/order-status/:id`, which looks the order up with the
 * admin API) and shows that, polling until the status is final.
 */
import { formatCrypto, formatMoney } from './lib/money.ts';

interface StatusView {
  orderId: string;
  /** The payment page's order reference: the one the shopper is shown everywhere. */
  upstreamId?: string;
  status: string | null;
  final?: boolean;
  amount?: string;
  currency?: string;
  name?: string;
  paid?: { amount: string; currency: string } | null;
}

const params = new URLSearchParams(location.search);
const orderId = params.get('orderId') ?? '';
const hinted = params.get('status');

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

const waiting = {
  tone: 'neutral',
  icon: '…',
  title: 'Waiting for your payment',
  text: 'We have not seen your payment yet; this page updates by itself.',
};

const copy: Record<string, { tone: string; icon: string; title: string; text: string }> = {
  paid: {
    tone: 'ok',
    icon: '✓',
    title: 'Thank you, payment received',
    text: 'Your order is paid. A receipt is on its way.',
  },
  overpaid: {
    tone: 'ok',
    icon: '✓',
    title: 'Thank you, payment received',
    text: 'You sent a little more than the price; the shop will refund the difference.',
  },
  underpaid: {
    tone: 'warn',
    icon: '!',
    title: 'Part of the payment arrived',
    text: 'The amount received is less than the price. Send the rest from the payment page, or contact the shop.',
  },
  expired: {
    tone: 'bad',
    icon: '×',
    title: 'This payment expired',
    text: 'No payment arrived in time. You can start a new checkout from the shop.',
  },
  failed: {
    tone: 'bad',
    icon: '×',
    title: 'The payment failed',
    text: 'Nothing was charged. Please try again.',
  },
  pending: waiting,
  awaiting_payment: waiting,
};

function show(view: StatusView): void {
  const status = view.status ?? 'pending';
  const text = copy[status] ?? { tone: 'neutral', icon: '?', title: `Order ${status}`, text: '' };
  $('#result').dataset['tone'] = text.tone;
  $('#result').dataset['status'] = status;
  $('#result-icon').textContent = text.icon;
  $('#result-title').textContent = text.title;
  $('#result-text').textContent = text.text;
  $('#result-facts').hidden = false;
  // One reference for the shopper: the one the payment page showed (support finds the order by either).
  const reference = view.upstreamId ?? view.orderId;
  $('#fact-order').textContent = reference;
  $('#fact-status').textContent = status.replace('_', ' ');
  $('#fact-status').dataset['status'] = status;
  if (view.amount) {
    $('#fact-amount-label').hidden = $('#fact-amount').hidden = false;
    $('#fact-amount').textContent =
      `${view.name ? `${view.name}, ` : ''}${formatMoney(view.amount, view.currency)}`;
  }
  if (view.paid?.amount) {
    $('#fact-paid-label').hidden = $('#fact-paid').hidden = false;
    $('#fact-paid').textContent = formatCrypto(view.paid.amount, view.paid.currency);
  }
  $('#result-source').textContent =
    hinted && hinted !== status
      ? `The return link said "${hinted}"; the shop's server says "${status}", which is what counts.`
      : "Status confirmed by the shop's server.";
  $<HTMLAnchorElement>('#result-orders').href = `/console#/orders/${encodeURIComponent(reference)}`;
}

function fail(message: string): void {
  $('#result').dataset['tone'] = 'bad';
  $('#result-icon').textContent = '?';
  $('#result-title').textContent = 'We could not find this order';
  $('#result-text').textContent = message;
}

async function poll(attempt = 0): Promise<void> {
  try {
    const response = await fetch(`/demo-api/order-status/${encodeURIComponent(orderId)}`);
    if (response.status === 404) return fail('No order with that id: check the link you followed.');
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const view = (await response.json()) as StatusView;
    show(view);
    if (!view.final && attempt < 60) setTimeout(() => void poll(attempt + 1), 2000);
  } catch {
    if (attempt < 5) setTimeout(() => void poll(attempt + 1), 2000);
    else fail('The shop could not be reached. Refresh the page to try again.');
  }
}

if (!orderId) fail('This page is where the payment page sends you back; it needs an order id.');
else void poll();
