import { css } from 'lit';

// Public tokens (--checkout-*) are read once into private --_* variables; light-dark() picks the theme's default.
export const styles = css`
  :host { display: block; }
  :host([hidden]), [hidden] { display: none !important; }
  .base {
    --_accent: var(--checkout-accent, #4f46e5);
    --_radius: var(--checkout-radius, 10px);
    --_font: var(--checkout-font-family, system-ui, sans-serif);
    --_surface: var(--checkout-surface, light-dark(#fff, #18181b));
    --_text: var(--checkout-text, light-dark(#18181b, #f4f4f5));
    --_danger: var(--checkout-danger, light-dark(#b42318, #ff9b8f));
    --_ok: var(--checkout-success, light-dark(#0f7b4b, #5fd39b));
    --_line: color-mix(in srgb, var(--_text) 30%, transparent);
    --_r: calc(var(--_radius) * 0.6);
    color-scheme: light;
    font: 15px/1.45 var(--_font);
    color: var(--_text);
    background: var(--_surface);
    border-radius: var(--_radius);
    padding: 16px;
    container-type: inline-size;
    /* Containment gives no width of its own: a host that sizes to its content (inline-block, a flex item) would
       otherwise collapse. */
    contain-intrinsic-inline-size: 22rem;
  }
  /* Arabic reads right to left; in another language, the element follows the page's dir (on it or an ancestor). */
  .base:lang(ar) { direction: rtl; }
  .dark { color-scheme: dark; }
  .auto { color-scheme: light dark; }
  .base, form, .form, .deposit, .skeleton { display: grid; gap: 12px; margin: 0; }
  .field { display: grid; gap: 4px; position: relative; }
  label { font-size: 13px; font-weight: 600; }
  /* A finger's target (44px); text at 16px, or iOS Safari zooms into the field on focus. */
  input, textarea, button { font: inherit; color: inherit; box-sizing: border-box; min-height: 44px; border-radius: var(--_r); }
  input, textarea { width: 100%; padding: 8px 10px; background: var(--_surface); border: 1px solid var(--_line); font-size: 16px; }
  [aria-invalid=true] { border-color: var(--_danger); }
  button { cursor: pointer; padding: 8px 14px; border: 1px solid var(--_line); background: none; }
  .primary { background: var(--_accent); border-color: var(--_accent); color: #fff; font-weight: 600; }
  button:disabled { opacity: 0.55; cursor: not-allowed; }
  :focus-visible { outline: 3px solid var(--_accent); outline-offset: 2px; }
  small, .fresh, .desc { font-size: 13px; }
  .combo-input, .error { display: flex; align-items: center; gap: 8px; }
  /* The picked entry's icon sits inside the field, so the text keeps the field's whole width. */
  .combo-input { position: relative; }
  .combo-input > :not(input) { position: absolute; inset-inline-start: 10px; pointer-events: none; }
  .combo-input:has(> :not(input)) input { padding-inline-start: 38px; }
  /* A chevron says the field opens a list. */
  .combo-input input { padding-inline-end: 32px; text-overflow: ellipsis; }
  .combo-input::after { content: ''; position: absolute; inset-inline-end: 14px; top: calc(50% - 6px); width: 7px; height: 7px; border: solid var(--_text); border-width: 0 2px 2px 0; transform: rotate(45deg); opacity: 0.6; pointer-events: none; }
  .error { color: var(--_danger); }
  .error { justify-content: space-between; }
  .error button { flex: none; }
  p { margin: 0; }
  .skeleton { gap: 8px; }
  .skeleton i { height: 40px; border-radius: var(--_r); background: var(--_line); animation: pulse 1.2s ease-in-out infinite alternate; }
  @keyframes pulse { to { opacity: 0.4; } }
  .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  @media (prefers-reduced-motion: reduce) { * { animation: none !important; transition: none !important; } }
`;
