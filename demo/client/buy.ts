/** The Buy page: the element's events, and the wallet the crypto goes to kept in its `wallet-address`. */
import { attachEventLog } from './lib/event-log.ts';

attachEventLog();

// A textarea so that the whole address shows on a phone (wrapped); it is one line of text all the same.
const wallet = document.querySelector<HTMLTextAreaElement>('#wallet')!;
const checkout = document.querySelector<HTMLElement>('#checkout')!;
wallet.addEventListener('keydown', (e) => {
  if (e.key === 'Enter') e.preventDefault();
});
wallet.addEventListener('input', () => {
  checkout.setAttribute('wallet-address', wallet.value.trim());
  // The hidden copy the field grows with (styles.css, .grow-wrap).
  if (wallet.parentElement) wallet.parentElement.dataset['value'] = wallet.value;
});
