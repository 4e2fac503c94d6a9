/**
 * The hosted payment page's browser script (inline under the page's nonce), reading its inputs from the
 * `#pay-config` JSON the view writes: it tells a trusted embedder the order's status and the page's height, counts
 * down to expiry on the server's clock, returns a paid payer to the merchant, reloads when the status changes, and
 * wires the Copy buttons.
 */
export const PAY_PAGE_SCRIPT = `
(() => {
  const cfg = JSON.parse(document.getElementById('pay-config').textContent);
  if (window.parent !== window) document.documentElement.classList.add('framed');
  const skew = cfg.serverNow - Date.now();
  const now = () => Date.now() + skew;
  if (cfg.targetOrigin && window.parent !== window) {
    window.parent.postMessage({ type: cfg.messageType, orderId: cfg.orderId, status: cfg.status }, cfg.targetOrigin);
    // The content's height, so the embedding page can size the frame to it (same trusted origin only).
    const main = document.querySelector('main');
    let last = 0;
    const post = () => {
      const height = Math.ceil(main.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      window.parent.postMessage({ type: cfg.resizeType, height }, cfg.targetOrigin);
    };
    if (main && typeof ResizeObserver === 'function') new ResizeObserver(post).observe(main);
  }
  const timer = document.getElementById('countdown');
  const fmt = (ms) => { const s = Math.max(0, Math.floor(ms / 1000)); return Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0'); };
  if (timer && cfg.expiresAt) {
    const tick = () => {
      const left = cfg.expiresAt - now();
      timer.textContent = fmt(left);
      if (left <= 0) { clearInterval(handle); location.reload(); }
    };
    const handle = setInterval(tick, 1000);
  }
  if (cfg.redirectUrl) {
    const out = document.getElementById('redirect-in');
    const at = Date.now() + cfg.redirectDelayMs;
    const step = () => {
      const left = at - Date.now();
      if (out) out.textContent = String(Math.max(0, Math.ceil(left / 1000)));
      if (left <= 0) location.href = cfg.redirectUrl; else setTimeout(step, 250);
    };
    step();
  }
  if (!cfg.final) {
    setInterval(async () => {
      try {
        const res = await fetch(cfg.statusUrl, { cache: 'no-store' });
        const body = await res.json();
        if (body.status !== cfg.status) location.reload();
      } catch {}
    }, 2000);
  }
  const live = document.getElementById('copy-status');
  for (const button of document.querySelectorAll('[data-copy]')) {
    button.hidden = false;
    button.addEventListener('click', async () => {
      const text = button.getAttribute('data-copy');
      try { await navigator.clipboard.writeText(text); live.textContent = 'Copied to clipboard'; }
      catch { const r = document.createRange(); r.selectNodeContents(document.getElementById(button.getAttribute('aria-controls'))); getSelection().removeAllRanges(); getSelection().addRange(r); live.textContent = 'Selected: press Ctrl+C or Cmd+C to copy'; }
    });
  }
})();
`;
