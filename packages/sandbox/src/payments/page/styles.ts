/** The hosted payment page's CSS, inline under its nonce: light and dark, framed and compact, reduced motion. */
export const PAY_PAGE_STYLES = `
:root { color-scheme: light dark; --bg: #f6f7fb; --card: #fff; --text: #15171c; --muted: #5b6170; --line: #dfe2ea;
  --accent: #3b4fe0; --accent-text: #fff; --ok: #0f7b4b; --warn: #8a5a00; --bad: #b3261e; --chip: #eef0fb;
  --radius: 14px; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
@media (prefers-color-scheme: dark) { :root { --bg: #0f1115; --card: #181b22; --text: #eef0f5; --muted: #a3a9b7;
  --line: #2b303b; --accent: #8c9bff; --accent-text: #0f1115; --ok: #5fd39b; --warn: #f2c05c; --bad: #ff8a80;
  --chip: #232838; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); }
main { max-width: 30rem; margin: 0 auto; padding: 1rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); padding: 1.25rem; }
.card + .card { margin-top: 0.75rem; }
.badge { display: inline-block; font-size: 0.75rem; font-weight: 600; letter-spacing: 0.02em; padding: 0.1rem 0.5rem;
  border-radius: 999px; background: var(--chip); color: var(--muted); }
.item { display: flex; gap: 0.9rem; align-items: center; }
.item img { width: 64px; height: 64px; object-fit: cover; border-radius: 10px; border: 1px solid var(--line); }
h1 { font-size: 1.15rem; margin: 0.25rem 0 0; }
h2 { font-size: 1rem; margin: 0 0 0.75rem; }
.muted { color: var(--muted); font-size: 0.9rem; margin: 0.15rem 0 0; }
.price { font-size: 1.6rem; font-weight: 700; margin: 0.75rem 0 0; font-variant-numeric: tabular-nums; }
label { display: block; font-weight: 600; margin: 0.75rem 0 0.25rem; }
input[type=text], input[type=email] { width: 100%; font: inherit; padding: 0.6rem 0.7rem; border-radius: 10px;
  border: 1px solid var(--line); background: var(--card); color: var(--text); }
input[aria-invalid=true] { border-color: var(--bad); }
button, .button { font: inherit; font-weight: 600; border: 0; border-radius: 10px; padding: 0.65rem 1rem;
  background: var(--accent); color: var(--accent-text); cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary { background: var(--chip); color: var(--text); }
button:focus-visible, a:focus-visible, input:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.actions { margin-top: 1rem; display: flex; gap: 0.5rem; flex-wrap: wrap; }
fieldset { border: 0; margin: 0; padding: 0; }
legend { font-weight: 600; margin-bottom: 0.5rem; }
.choice { display: flex; justify-content: space-between; align-items: center; gap: 0.5rem; padding: 0.55rem 0.75rem;
  border: 1px solid var(--line); border-radius: 10px; margin-top: 0.4rem; font-weight: 500; cursor: pointer; }
.choice:has(input:checked) { border-color: var(--accent); box-shadow: 0 0 0 1px var(--accent); }
.choice span:last-child { color: var(--muted); font-variant-numeric: tabular-nums; }
dl { margin: 0; display: grid; gap: 0.6rem; }
dt { font-size: 0.8rem; color: var(--muted); font-weight: 600; text-transform: uppercase; letter-spacing: 0.04em; }
dd { margin: 0; display: flex; gap: 0.5rem; align-items: center; }
code { font: 0.9rem/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; word-break: break-all; }
.copy { padding: 0.3rem 0.6rem; font-size: 0.8rem; }
.notice { padding: 0.6rem 0.75rem; border-radius: 10px; background: var(--chip); margin: 0.75rem 0 0; }
.notice + dl { margin-top: 0.75rem; }
.notice.warn { color: var(--warn); } .notice.bad { color: var(--bad); } .notice.ok { color: var(--ok); }
.timer { font-variant-numeric: tabular-nums; font-weight: 700; }
/* In a frame the merchant's page shows the product already: a compact header (no picture, no description). */
.framed main { padding: 0.5rem 0.75rem; }
.framed .card { padding: 0.9rem 1rem; }
.framed .item img, .framed .desc { display: none; }
.framed .price { font-size: 1.3rem; margin-top: 0.25rem; }
.framed label { margin-top: 0.5rem; }
.framed footer { margin: 0.5rem 0 0; }
/* A narrow frame sits inside the merchant's own card: flat sections, not cards inside cards. */
@media (max-width: 480px) {
  .framed body { background: var(--card); }
  .framed main { padding: 0 0.25rem; }
  .framed .card { border: 0; border-radius: 0; padding: 0.75rem 0; background: none; }
  .framed .card + .card { margin-top: 0; border-top: 1px solid var(--line); }
}
.done { font-size: 2.5rem; line-height: 1; color: var(--ok); }
.sandbox { border-style: dashed; }
.sandbox p { margin: 0 0 0.5rem; }
footer { text-align: center; margin: 1rem 0; font-size: 0.9rem; }
footer a { color: var(--accent); }
@media (prefers-reduced-motion: no-preference) { button, .choice { transition: box-shadow 120ms, transform 120ms; }
  button:active { transform: translateY(1px); } }
[hidden] { display: none !important; }
`;
