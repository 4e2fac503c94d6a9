/** The console's shared styles: light and dark from the system, visible focus, tables that stack at phone widths. */
import { css } from 'lit';

export const pageStyles = css`
  :host {
    display: block;
    --_fg: #1a1d21;
    --_muted: #4d5561;
    --_bg: #ffffff;
    --_panel: #f4f6f8;
    --_line: #d5dae0;
    --_accent: #0b57d0;
    --_accent-fg: #ffffff;
    --_bad: #a4161a;
    --_good: #17633a;
    --_warn: #7a4b00;
    color: var(--_fg);
    background: var(--_bg);
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_fg: #e8eaed;
      --_muted: #b3bac4;
      --_bg: #16181c;
      --_panel: #22262c;
      --_line: #3a4049;
      --_accent: #8ab4f8;
      --_accent-fg: #0d1117;
      --_bad: #ff8a80;
      --_good: #81c995;
      --_warn: #fdd663;
    }
  }
  [hidden] {
    display: none !important;
  }
  h1 {
    font-size: 1.4rem;
    margin: 0 0 0.75rem;
  }
  h2 {
    font-size: 1.1rem;
    margin: 1.25rem 0 0.5rem;
  }
  a {
    color: var(--_accent);
  }
  :focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }
  button,
  input,
  select,
  textarea {
    font: inherit;
    color: inherit;
  }
  input,
  select,
  textarea {
    background: var(--_bg);
    border: 1px solid var(--_muted);
    border-radius: 6px;
    padding: 0.35rem 0.5rem;
    min-height: 2.25rem;
    box-sizing: border-box;
    max-width: 100%;
  }
  button {
    border: 1px solid var(--_accent);
    background: var(--_accent);
    color: var(--_accent-fg);
    border-radius: 6px;
    padding: 0.35rem 0.85rem;
    min-height: 2.25rem;
    cursor: pointer;
  }
  button.secondary {
    background: transparent;
    color: var(--_accent);
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  label {
    display: inline-flex;
    flex-direction: column;
    gap: 0.2rem;
    font-size: 0.9rem;
  }
  .filters {
    display: flex;
    flex-wrap: wrap;
    gap: 0.75rem;
    align-items: flex-end;
    margin-bottom: 1rem;
  }
  .filters label.grow {
    flex: 1 1 16rem;
  }
  .notice {
    background: var(--_panel);
    border-left: 4px solid var(--_warn);
    padding: 0.5rem 0.75rem;
    margin: 0 0 1rem;
  }
  .error {
    color: var(--_bad);
  }
  .ok {
    color: var(--_good);
  }
  .muted {
    color: var(--_muted);
  }
  code,
  .mono {
    font-family: ui-monospace, monospace;
    font-size: 0.88em;
    overflow-wrap: anywhere;
  }
  /* A shortened id or hash (ord_5bd793…210cfe) is one word: broken over two lines it is harder to read and its link
     has no centre to click. */
  .short-id {
    white-space: nowrap;
  }
  table {
    border-collapse: collapse;
    width: 100%;
  }
  th,
  td {
    text-align: left;
    vertical-align: top;
    padding: 0.4rem 0.5rem;
    border-bottom: 1px solid var(--_line);
  }
  th {
    font-size: 0.85rem;
    color: var(--_muted);
  }
  dl {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 0.25rem 1rem;
    margin: 0;
  }
  dt {
    color: var(--_muted);
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .panel {
    background: var(--_panel);
    border-radius: 8px;
    padding: 0.75rem 1rem;
    margin-bottom: 1rem;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  .status {
    font-weight: 600;
  }
  .pager {
    margin-top: 1rem;
  }
  /* Phones: each row of a table becomes a block, each cell labelled by its column. */
  @media (max-width: 640px) {
    table.stack thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip-path: inset(50%);
    }
    table.stack tr {
      display: block;
      border-bottom: 1px solid var(--_line);
      padding: 0.4rem 0;
    }
    table.stack td {
      display: grid;
      grid-template-columns: 7.5rem 1fr;
      gap: 0.5rem;
      border: 0;
      padding: 0.15rem 0;
    }
    table.stack td::before {
      content: attr(data-label);
      color: var(--_muted);
      font-size: 0.85rem;
    }
    dl {
      grid-template-columns: 1fr;
    }
    dt {
      margin-top: 0.35rem;
    }
  }
`;
