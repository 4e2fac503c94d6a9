/**
 * The payment or ramp page as the element shows it: an iframe inline, or in a modal dialog with a title and a
 * close button, and the new-tab offer while it is silent; what the page says, the modal's close and the
 * checkout's end (return-url) as the element's events. Loaded when a page is first opened (or prefetched once the form shows), so a shopper who
 * never presses the main button never downloads it.
 */
import { html, nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { ApiError } from '../api/client.ts';
import type { CheckoutCompleteDetail } from '../events.ts';
import { frameMessages } from './frame.messages.ts';
import { FrameController, type FrameMessage } from './frame-controller.ts';
import { CheckoutCloseEvent, CheckoutCompleteEvent } from './outcome-events.ts';

export { frameStyles } from './frame.styles.ts';

export { FrameController } from './frame-controller.ts';

type Host = ReactiveControllerHost & HTMLElement & { renderRoot: ParentNode };

/**
 * The element's frame. The page's error is a `checkout-error` (the page shows its own explanation; the merchant
 * hears of it), its close closes it with a `checkout-close`; its other messages go to `onMessage` (the view).
 * What a page posts: docs/upstream.md#postmessage.
 */
export function createFrame(
  host: Host,
  emitError: (e: unknown) => void,
  onMessage: (m: FrameMessage) => void,
  navigate: (url: string) => void,
): FrameController {
  const frame: FrameController = new FrameController(
    host,
    (m) => {
      if (m.type === 'SWAPPED_ERROR') emitError(new ApiError('UPSTREAM_ERROR'));
      else if (m.type === 'SWAPPED_CLOSE') close(host, frame, 'page');
      else onMessage(m);
    },
    navigate,
  );
  return frame;
}

/**
 * The checkout's end, which its page reached: `checkout-complete`, then `return-url` (with `orderId` and `status`)
 * after 1.5 s (on the frame's timers) unless the event was prevented.
 */
export function complete(
  host: Host & { returnUrl: string },
  frame: FrameController,
  detail: CheckoutCompleteDetail,
  navigate: (url: string) => void,
): void {
  let returnUrl: string | undefined;
  if (host.returnUrl) {
    const url = new URL(host.returnUrl, location.href);
    if (detail.orderId) url.searchParams.set('orderId', detail.orderId);
    url.searchParams.set('status', detail.status);
    returnUrl = url.href;
  }
  const event = new CheckoutCompleteEvent({ ...detail, ...(returnUrl ? { returnUrl } : {}) });
  host.dispatchEvent(event);
  // The outcome (a polite status) stays on screen for 1.5 s: leaving at once, the payer would never read it.
  if (returnUrl && !event.defaultPrevented) frame.later(() => navigate(returnUrl), 1500);
}

/** Closes the open page and says so (`checkout-close`). */
function close(host: Host, frame: FrameController, reason: 'user' | 'page'): void {
  frame.close();
  host.dispatchEvent(new CheckoutCloseEvent({ reason }));
}

/** The open page (nothing when none is open); the shopper closing the modal is a `checkout-close` from `host`. */
export function renderFrame(
  host: Host,
  f: FrameController,
  loc: string,
  /** The modal's title: what is being paid (the view's), else "Checkout". */
  title?: string,
): TemplateResult | typeof nothing {
  if (!f.url) return nothing;
  // What the framed page may do (docs/payment-page-security.md, "The payment frame", says why each token is
  // there): run its scripts, as its own origin (its postMessage is checked by origin, its status by fetch), post
  // its forms, open a new window (a wallet, 3-D Secure); never navigate the shop's page (the element does that on
  // the return message), nor open dialogs or downloads. The shop's path and query never reach the upstream.
  // The height goes through CSSOM (`.style` is `style.cssText`), which a storefront's CSP allows; a `style`
  // attribute in the template is refused under `style-src` without 'unsafe-inline', and the frame could not grow.
  const frame = html`<iframe
      part="frame"
      src=${f.url}
      title=${frameMessages(loc, 'checkout')}
      allow="payment; clipboard-write; camera"
      sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox"
      referrerpolicy="strict-origin-when-cross-origin"
      .style=${f.height ? `height:${f.height}px` : ''}
      @load=${f.onLoad}
    ></iframe>
    ${
      f.state === 'fallback'
        ? html`<p class="fallback"><a href=${f.url} target="_blank" rel="noopener">${frameMessages(loc, 'newTab')}</a></p>`
        : nothing
    }`;
  if (f.display === 'inline') return html`<div class="frame">${frame}</div>`;
  // A title names the dialog (what is being paid); on a phone the dialog takes the whole screen.
  return html`<dialog part="dialog" class=${f.phone ? 'phone' : ''} aria-labelledby="dialog-title" @close=${() => f.url && close(host, f, 'user')}>
    <form method="dialog" class="bar">
      <h2 id="dialog-title" part="dialog-title">${title ?? frameMessages(loc, 'checkout')}</h2>
      <button class="close" autofocus aria-label=${frameMessages(loc, 'close')}>×</button>
    </form>
    ${frame}
  </dialog>`;
}
