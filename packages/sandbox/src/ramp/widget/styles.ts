/** The hosted ramp widget's CSS (inline in both of its pages): light and dark, focus rings, reduced motion. */
export const WIDGET_STYLES = `
:root { color-scheme: light dark; --bg: #f4f5f8; --card: #ffffff; --text: #16181d; --muted: #5b6170;
  --line: #e2e4ea; --accent: #3b4fd8; --accent-text: #ffffff; --danger: #b3261e; --ok: #1d7a4f; }
@media (prefers-color-scheme: dark) { :root { --bg: #101217; --card: #191c23; --text: #eef0f4; --muted: #a3a9b7;
  --line: #2b2f39; --accent: #7d8cff; --accent-text: #0d0f14; --danger: #ff8a80; --ok: #6fd3a0; } }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg);
  color: var(--text); display: flex; justify-content: center; padding: 16px; }
main { width: 100%; max-width: 440px; background: var(--card); border: 1px solid var(--line); border-radius: 16px;
  padding: 20px; box-shadow: 0 8px 24px rgb(0 0 0 / 0.06); }
header { display: flex; align-items: center; justify-content: space-between; margin-bottom: 16px; }
h1 { font-size: 18px; margin: 0; }
h2 { font-size: 16px; margin: 0 0 12px; }
.badge { font-size: 12px; font-weight: 600; padding: 2px 8px; border-radius: 999px; background: #fff3c4; color: #6b4e00; }
label { display: block; font-size: 13px; color: var(--muted); margin-bottom: 4px; }
.field { display: flex; align-items: center; border: 1px solid var(--line); border-radius: 10px; padding: 0 12px;
  margin-bottom: 12px; }
.field input { flex: 1; min-width: 0; border: 0; background: transparent; color: inherit; font: inherit;
  font-size: 20px; padding: 10px 0; }
.field input:focus { outline: none; }
.field:focus-within { border-color: var(--accent); box-shadow: 0 0 0 3px color-mix(in srgb, var(--accent) 25%, transparent); }
.unit { font-weight: 600; color: var(--muted); }
.receive { font-size: 20px; font-weight: 600; margin: 0 0 12px; }
dl { display: grid; grid-template-columns: 1fr auto; gap: 6px 12px; margin: 0 0 16px; font-size: 14px; }
dt { color: var(--muted); } dd { margin: 0; text-align: right; font-variant-numeric: tabular-nums; }
dt.total, dd.total { font-weight: 700; color: var(--text); border-top: 1px solid var(--line); padding-top: 6px; }
.method { display: flex; align-items: center; gap: 8px; margin-bottom: 12px; color: var(--muted); font-size: 14px; }
.method img { width: 40px; height: 25px; }
button { font: inherit; font-weight: 600; border-radius: 10px; padding: 12px 16px; width: 100%; cursor: pointer;
  border: 1px solid transparent; margin-top: 8px; }
button.primary { background: var(--accent); color: var(--accent-text); }
button.secondary { background: transparent; color: var(--text); border-color: var(--line); }
button:disabled { opacity: 0.5; cursor: not-allowed; }
button:focus-visible, input:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.error { color: var(--danger); font-size: 14px; min-height: 1.2em; margin: 0 0 8px; }
.mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; word-break: break-all;
  background: var(--bg); border-radius: 8px; padding: 8px; }
.ok { color: var(--ok); }
.note { color: var(--muted); font-size: 13px; }
@media (prefers-reduced-motion: no-preference) { button { transition: filter 0.15s; } button:hover:not(:disabled) { filter: brightness(1.08); } }
`;
