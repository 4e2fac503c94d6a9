import { css } from 'lit';

/** The open list's CSS, adopted beside the host's once the list's code is here. */
export const listStyles = css`
  [role=listbox] { position: absolute; z-index: 2; top: 100%; inset-inline: 0; max-height: 240px; overflow: auto; margin: 4px 0 0; padding: 4px; list-style: none; background: var(--_surface); border: 1px solid var(--_line); border-radius: var(--_r); box-shadow: 0 8px 24px #0003; }
  [role=option] { display: flex; align-items: center; gap: 8px; padding: 8px 10px; border-radius: var(--_r); cursor: pointer; min-height: 44px; box-sizing: border-box; }
  [aria-selected=true] { outline: 2px solid var(--_accent); }
  [role=option] small { margin-inline-start: auto; }
  /* The current value's check mark, at the line's end (its left in a right-to-left language); named by the field. */
  .cur::after { content: '✓' / ''; margin-inline-start: auto; font-weight: 700; }
  .cur:has(small)::after { margin: 0; }
  [role=option].none { cursor: default; font-style: italic; }
`;
