import { css } from 'lit';

/** The money beside an order's status: the rest's address whole on any width, its time left in even digits. */
export const settlementStyles = css`
  .settlement { display: grid; gap: 6px; }
  .settlement p { margin: 0; }
  .settlement .address { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; }
  .settlement code { flex: 1 1 12em; min-width: 0; overflow-wrap: anywhere; font-size: 0.9em; }
  .time-left { font-variant-numeric: tabular-nums; }
`;
