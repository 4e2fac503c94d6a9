/** Shows the element's events in a list on the page, the way a merchant would watch them while integrating. */

/** Every event `<crypto-checkout>` fires (also what the end-to-end tests record). */
export const checkoutEventNames = [
  'checkout-ready',
  'checkout-quote',
  'checkout-order',
  'checkout-status',
  'checkout-complete',
  'checkout-error',
  'checkout-close',
] as const;

export type CheckoutEventName = (typeof checkoutEventNames)[number];

/** A short, readable summary of an event's detail (the full detail goes in the title). */
function summarise(name: CheckoutEventName, detail: Record<string, unknown>): string {
  const pick = (...keys: string[]) =>
    keys
      .filter((key) => detail[key] !== undefined && typeof detail[key] !== 'object')
      .map((key) => `${key}=${String(detail[key])}`)
      .join(' ');
  switch (name) {
    case 'checkout-quote': {
      const fiat = detail['fiat'] as { amount?: string; total?: string; currency?: string } | undefined;
      const crypto = detail['crypto'] as { amount?: string; currency?: string } | undefined;
      return `${fiat?.total ?? fiat?.amount ?? '?'} ${fiat?.currency ?? ''} ⇄ ${crypto?.amount ?? '?'} ${crypto?.currency ?? ''}`;
    }
    case 'checkout-ready':
      return pick('mode', 'country');
    default:
      return pick('kind', 'orderId', 'status', 'final', 'code', 'message', 'reason');
  }
}

/** What this page reads of `<crypto-checkout>` (undefined until its script has defined the tag). */
interface Checkout extends HTMLElement {
  readyState?: 'loading' | 'ready';
  ready?: Promise<Record<string, unknown>>;
}

export function attachEventLog(target: EventTarget = document): void {
  const list = document.querySelector<HTMLOListElement>('#event-log');
  const empty = document.querySelector<HTMLElement>('#event-log-empty');
  if (!list) return;
  const show = (name: CheckoutEventName, detail: Record<string, unknown>) => {
    const item = document.createElement('li');
    item.dataset['event'] = name;
    item.title = JSON.stringify(detail, null, 2);
    const label = document.createElement('span');
    label.className = 'event-name';
    label.textContent = name;
    item.append(label, ` ${summarise(name, detail)}`);
    list.prepend(item);
    while (list.children.length > 40) list.lastElementChild?.remove();
    if (empty) empty.hidden = true;
  };
  for (const name of checkoutEventNames) {
    target.addEventListener(name, (event) =>
      show(name, ((event as CustomEvent).detail ?? {}) as Record<string, unknown>),
    );
  }
  // This module runs after the element's script, which may have shown the form already: `checkout-ready` then
  // fired before the listener above was there, and the element says what it said (the README's "The element").
  // An element its script has not defined yet has no readyState: its `checkout-ready` is still to come.
  const scope = target instanceof Element || target instanceof Document ? target : document;
  for (const checkout of scope.querySelectorAll<Checkout>('crypto-checkout')) {
    if (checkout.readyState === 'ready')
      void checkout.ready?.then((detail) => show('checkout-ready', detail));
  }
}
