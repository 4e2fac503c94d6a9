import { css } from 'lit';

/**
 * A status reads as news, not as a field: a tinted band with an icon, no input-like border. Shown after a payment
 * or a ramp session starts (pay-order.ts, ramp-session.ts), so its CSS loads with them, not with the element.
 */
export const statusStyles = css`
  .status { display: flex; align-items: center; gap: 8px; --_tone: var(--_accent); padding: 10px 12px; border-inline-start: 4px solid var(--_tone); border-radius: var(--_r); background: color-mix(in srgb, var(--_tone) 12%, transparent); font-weight: 600; }
  .status.paid, .status.overpaid { --_tone: var(--_ok); }
`;
