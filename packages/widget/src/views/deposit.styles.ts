import { css } from 'lit';

// Deposit: the address, the memo and the QR code.
export const depositStyles = css`
  #memo { font: 13px ui-monospace, monospace; }
  .qr { justify-self: center; background: #fff; padding: 8px; border-radius: var(--_r); object-fit: cover; }
  .copy { display: flex; align-items: center; gap: 8px; }
`;
