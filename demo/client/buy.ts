/** The Buy page: the element's events, and the wallet the crypto goes to kept in its `wallet-address`. */
import { attachEventLog } from './lib/event-log.ts';

attachEventLog();

const wallet = document.querySelector<HTMLInputElement>('#wallet')!;
const checkout = document.querySelector<HTMLElement>('#checkout')!;
wallet.addEventListener('input', () => {
  checkout.setAttribute('wallet-address', wallet.value.trim());
});
