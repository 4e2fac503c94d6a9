import { css } from 'lit';

// Deposit: the address, the memo and the QR code.
export const depositStyles = css`
  /* An address is shown whole (wrapped, never scrolled out of sight): the customer checks it
     before sending (buy's wallet field is the same). The field grows with it through a hidden copy of its text (data-v)
     in the same grid cell, in every browser (field-sizing is not in Safari before 26.2 nor in Firefox ESR before
     152). 16px: iOS Safari zooms into a smaller field on focus. */
  .grow { display: grid; flex: 1; }
  .grow::after { content: attr(data-v) ' '; visibility: hidden; border: 1px solid; padding: 8px 10px; }
  .grow > *, .grow::after { grid-area: 1 / 1; font: 16px/1.5 ui-monospace, monospace; white-space: pre-wrap; word-break: break-all; resize: none; overflow: hidden; }
  #memo { font: 16px ui-monospace, monospace; }
  .qr { justify-self: center; background: #fff; padding: 8px; border-radius: var(--_r); object-fit: cover; }
  .copy { display: flex; align-items: center; gap: 8px; }
`;
