import { css } from 'lit';

// Deposit: the address, the memo and the QR code.
export const depositStyles = css`
  /* An address is shown whole (wrapped, never scrolled out of sight): the customer checks it before sending (buy's wallet field is the same). */
  .address { display: block; font: 13px/1.65 ui-monospace, monospace; word-break: break-all; resize: none; field-sizing: content; }
  #memo { font: 13px ui-monospace, monospace; }
  .qr { justify-self: center; background: #fff; padding: 8px; border-radius: var(--_r); object-fit: cover; }
  .copy { display: flex; align-items: center; gap: 8px; }
`;
