import { css } from 'lit';

/** The frame's and the modal's CSS, adopted beside the element's once the frame's code is here. */
export const frameStyles = css`
  iframe { width: 100%; height: 560px; border: 0; background: #fff; border-radius: var(--_r); object-fit: cover; }
  /* A modal dialog is fixed: its percentages are of the screen (no vw or dvh: see PHONE in frame-controller.ts). */
  dialog { width: min(600px, 100% - 24px); max-height: calc(100% - 24px); box-sizing: border-box; padding: 0 8px 8px; border: 0; border-radius: var(--_radius); background: var(--_surface); color: var(--_text); overflow: hidden; }
  dialog[open] { display: flex; flex-direction: column; }
  /* The frame takes the page's height when the page says it, but never more than the screen leaves (it shrinks
     with the dialog, whose height the screen caps). */
  dialog iframe { flex: 1 1 auto; min-height: 0; }
  dialog::backdrop { background: #0009; }
  .bar { display: flex; align-items: center; justify-content: space-between; gap: 8px; padding: 8px 0; padding-inline-start: 8px; }
  .bar h2 { margin: 0; font-size: 16px; font-weight: 700; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  /* A phone: the dialog is the whole screen. */
  dialog.phone { width: 100%; max-width: none; height: 100%; max-height: none; margin: 0; border-radius: 0; }
  dialog.phone iframe { height: auto !important; }
  .close { font-size: 20px; line-height: 1; }
  .fallback { margin-top: 8px; text-align: center; }
  a { color: inherit; }
`;
