/**
 * What every page of an end-to-end test runs before its own scripts: a record of the element's events in
 * sessionStorage (read by harness.ts, across navigations of the tab), and, in Firefox and WebKit, of uncaught
 * errors (`page.on('pageerror')`, which WebDriver classic cannot report). Chromium gets the first through
 * Playwright's addInitScript; Firefox and WebKit get both from driver/proxy.ts.
 */

/**
 * Appends each of the element's events (`names`) to sessionStorage's `e2e-events`, and each CSP violation of the
 * page (the demo is served under the storefront's policy) to `e2e-csp`: `directive blocked (source:line)`.
 */
export function recordEvents(names: readonly string[]): void {
  document.addEventListener('securitypolicyviolation', (event) => {
    const list = JSON.parse(sessionStorage.getItem('e2e-csp') ?? '[]') as string[];
    list.push(
      `${event.effectiveDirective} ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber}) on ${location.pathname}`,
    );
    sessionStorage.setItem('e2e-csp', JSON.stringify(list));
  });
  for (const name of names) {
    document.addEventListener(name, (event) => {
      const list = JSON.parse(sessionStorage.getItem('e2e-events') ?? '[]') as unknown[];
      list.push({ name, detail: (event as CustomEvent).detail, path: location.pathname });
      sessionStorage.setItem('e2e-events', JSON.stringify(list));
    });
  }
}

/** Appends uncaught errors of the page (not of frames inside it) to sessionStorage's `e2e-errors`. */
export function recordErrors(): void {
  let top = window.parent === window;
  try {
    // The page itself when a test frames it at a phone's size (driver/webkit.ts).
    top ||= window.parent.location.pathname.startsWith('/__e2e__/');
  } catch {
    // a cross-origin parent: a frame inside some page
  }
  if (!top) return;
  const keep = (message: string) => {
    const list = JSON.parse(sessionStorage.getItem('e2e-errors') ?? '[]') as string[];
    list.push(message);
    sessionStorage.setItem('e2e-errors', JSON.stringify(list));
  };
  addEventListener('error', (event) => keep(String(event.error?.message ?? event.message)));
  addEventListener('unhandledrejection', (event) =>
    keep(String((event.reason as Error | undefined)?.message ?? event.reason)),
  );
}

/** Both, as one classic script (tsx's compiled functions call `__name`: it is given). */
export const initScriptSource = (eventNames: readonly string[]): string =>
  `(() => { const __name = (f) => f; (${recordEvents})(${JSON.stringify(eventNames)}); (${recordErrors})(); })();`;
