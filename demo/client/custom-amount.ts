/** "Pay what you want": the shop's server mints a checkout token for the chosen amount; the element charges it. */
import { attachEventLog } from './lib/event-log.ts';

attachEventLog();

const form = document.querySelector<HTMLFormElement>('#tip-form')!;
const status = document.querySelector<HTMLElement>('#tip-status')!;
const host = document.querySelector<HTMLElement>('#tip-checkout')!;

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  status.textContent = 'Preparing…';
  try {
    const response = await fetch('/demo-api/checkout-tokens', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        amount: String(data.get('amount') ?? '').trim(),
        currency: data.get('currency'),
      }),
    });
    const json = (await response.json()) as { token?: string; error?: { message?: string } };
    if (!response.ok || !json.token) throw new Error(json.error?.message ?? `HTTP ${response.status}`);
    const checkout = document.createElement('crypto-checkout');
    checkout.id = 'checkout';
    checkout.setAttribute('mode', 'pay');
    checkout.setAttribute('checkout-token', json.token);
    checkout.setAttribute('return-url', '/thank-you');
    host.querySelector('crypto-checkout')?.remove();
    document.querySelector('#tip-placeholder')?.remove();
    host.append(checkout);
    status.textContent = '';
  } catch (caught) {
    status.textContent = caught instanceof Error ? caught.message : 'Something went wrong.';
  }
});
