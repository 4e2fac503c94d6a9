import { css } from 'lit';

// Buy and sell: the amounts and pickers side by side, the methods (radios, or a picker when long), their logos,
// flags, the amount's message, the quote.
export const rampStyles = css`
  fieldset, .methods { display: grid; gap: 12px; margin: 0; }
  legend { font-size: 13px; font-weight: 600; }
  .row { display: grid; grid-template-columns: repeat(auto-fit, minmax(140px, 1fr)); gap: 12px; }
  .flag { flex: none; width: 20px; height: 15px; border-radius: 2px; box-shadow: 0 0 0 1px #0002; }
  .msg:empty { display: none; }
  .msg { color: var(--_danger); }
  .hint { opacity: 0.8; }
  /* Buy's wallet address is shown whole (wrapped, never scrolled out of sight), as deposit's
     address is: the shopper checks it by eye. The field grows with it through a hidden copy of its text (data-v)
     in the same grid cell, in every browser (field-sizing is not in Safari before 26.2 nor in Firefox ESR before
     152). 16px: iOS Safari zooms into a smaller field on focus. */
  .grow { display: grid; flex: 1; }
  .grow::after { content: attr(data-v) ' '; visibility: hidden; border: 1px solid; padding: 8px 10px; }
  .grow > *, .grow::after { grid-area: 1 / 1; font: 16px/1.5 ui-monospace, monospace; white-space: pre-wrap; word-break: break-all; resize: none; overflow: hidden; }
  fieldset { border: 0; padding: 0; gap: 6px; }
  .method { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 8px 10px; border: 1px solid var(--_line); border-radius: var(--_r); min-height: 44px; box-sizing: border-box; font-weight: 400; }
  .method:has(:checked) { outline: 2px solid var(--_accent); }
  .net, dd, .method small { margin-inline-start: auto; }
  .method input { width: auto; min-height: 0; margin: 0; accent-color: var(--_accent); }
  /* The focus ring on a method's radio whenever it has focus: WebKit does not count a radio an arrow key moved to
     as :focus-visible, and a mouse user sees the picked method outlined anyway. */
  .method input:focus { outline: 3px solid var(--_accent); outline-offset: 2px; }
  .ico { display: grid; place-items: center; width: 20px; height: 20px; border-radius: 50%; font: 700 11px/1 var(--_font); background: var(--_accent); color: #fff; }
  .dk, .dark .lt { display: none; }
  .dark .dk { display: inline; }
  @media (prefers-color-scheme: dark) { .auto .lt { display: none; } .auto .dk { display: inline; } }
  .net { font-size: 12px; padding: 0 6px; border: 1px solid var(--_line); border-radius: 99px; }
  dl { margin: 0; display: grid; gap: 2px; }
  /* An amount too long for its row goes on a line of its own, to the right. */
  dl div { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 0 8px; }
  dd { font-variant-numeric: tabular-nums; }
  .terms { padding-inline-start: 2px; }
  dl div:last-child { font-weight: 700; }
  /* The ramp page's usual height until it posts its own (SWAPPED_RESIZE: docs/upstream.md#postmessage), so the
     frame barely moves when it does; a page that never posts it keeps this one. */
  .frame iframe { height: 540px; }
  /* A narrow element (a phone), last so that it wins: */
  @container (width<=400px) {
    /* only the picked method's fees and limits, on a line of their own; */
    .method small { flex-basis: 100%; padding-inline-start: 21px; }
    .method:not(:has(:checked)) small { display: none; }
    /* country and currency each take the whole width, so a name is read whole and its list is wide; the rows
       closer, so that with fields a finger can hit (44px) the amount, the quote and Continue stay in sight; */
    .pickers { grid-template-columns: 1fr; }
    form, .row { gap: 8px; }
    /* the ramp page's usual height there. */
    .frame iframe { height: 600px; }
  }
`;
