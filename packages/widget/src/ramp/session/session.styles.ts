import { css } from 'lit';

/** The summary line's CSS, adopted beside the element's once the session's code is here. */
export const sessionStyles = css`
  /* The form collapsed above the inline ramp page: one line of what is being bought or sold, and Change. */
  .summary { display: grid; grid-template-columns: 1fr auto; align-items: center; gap: 12px; padding: 8px; padding-inline-start: 12px; border: 1px solid var(--_line); border-radius: var(--_r); }
  .summary p { font-weight: 600; font-variant-numeric: tabular-nums; }
`;
