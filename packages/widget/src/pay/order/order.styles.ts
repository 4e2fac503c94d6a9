import { css } from 'lit';

/** The status's icon and tones (a pulse while waiting or under review, ✓ paid, ! needs the shopper) and the ways on. */
export const orderStyles = css`
  .status p { flex: 1; }
  .status.expired, .status.failed, .status.cancelled, .status.underpaid { --_tone: var(--_danger); }
  .status .icon { flex: none; display: grid; place-items: center; width: 22px; height: 22px; border-radius: 50%; background: var(--_tone); color: var(--_surface); font-size: 13px; line-height: 1; }
  .status .icon::before { content: ''; width: 8px; height: 8px; border-radius: 50%; background: var(--_surface); animation: pulse 0.9s ease-in-out infinite alternate; }
  .status.paid .icon::before, .status.overpaid .icon::before { content: '✓'; width: auto; height: auto; background: none; animation: none; font-weight: 700; }
  .status.expired .icon::before, .status.failed .icon::before, .status.cancelled .icon::before, .status.underpaid .icon::before { content: '!'; width: auto; height: auto; background: none; animation: none; font-weight: 700; }
  .actions { display: flex; flex-wrap: wrap; gap: 8px; }
`;
