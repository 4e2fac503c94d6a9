/**
 * Shows a payment or ramp page: in an iframe inside the element, in a modal dialog, or by sending the whole
 * page there. Offers a new tab when the frame shows no sign of life, and passes on the frame's messages,
 * only from the expected origins and from that frame's own window.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export type Display = 'inline' | 'modal' | 'redirect' | 'auto';
export type FrameState = 'idle' | 'loading' | 'ready' | 'fallback';

export interface FrameMessage {
  type: string;
  data?: unknown;
  [key: string]: unknown;
}

/**
 * What a payment or ramp page posts to say its content's height: `{type, height}`
 * (docs/upstream.md#postmessage).
 */
export const RESIZE_MESSAGE = 'SWAPPED_RESIZE';
const MAX_HEIGHT = 4000;

/**
 * A screen this narrow is a phone's: the modal takes all of it. Decided here rather than by an `@media` rule of the
 * element's CSS, because WebKit evaluates a shadow tree's media queries (and `vw`, `dvh`) once per shared style
 * resolver: an element mounted after the screen changed (turned, resized) while none was on the page got the old
 * screen's layout. `matchMedia` answers for the screen as it is now in every engine.
 */
const PHONE = '(max-width: 639px)';

type Host = ReactiveControllerHost & { renderRoot: ParentNode };

export class FrameController implements ReactiveController {
  url = '';
  display: 'inline' | 'modal' = 'inline';
  state: FrameState = 'idle';
  /** The page's own height in CSS pixels, when it says it (`SWAPPED_RESIZE`); the frame is sized to it. */
  height?: number;
  /** The screen is a phone's (`PHONE`): the modal is full-screen. Kept current while the modal is open. */
  phone = false;
  private _screen?: MediaQueryList;

  private _origins: string[] = [];
  private _opener?: Element | null;
  private _timer?: ReturnType<typeof setTimeout>;

  /**
   * Runs `work` after `ms`: the frame's timers (the new-tab offer, the checkout's end) go through it, a seam a
   * test steers instead of waiting.
   */
  later = (work: () => void, ms: number): ReturnType<typeof setTimeout> => setTimeout(work, ms);

  constructor(
    private _host: Host,
    private _onMessage: (message: FrameMessage) => void,
    private _navigate: (url: string) => void,
    /** How long a frame may stay silent before the new-tab offer appears. */
    public timeoutMs = 4000,
  ) {
    _host.addController(this);
  }

  /** Shows `url`; messages are accepted from `origins` only. */
  open(url: string, origins: string[], display: Display): void {
    // Only a web page is framed or navigated to: never a `javascript:` or `data:` URL, whoever sent it.
    if (!/^https?:\/\//i.test(url)) throw new TypeError(url.slice(0, 40));
    const shown =
      display === 'auto' ? (matchMedia('(min-width: 640px)').matches ? 'modal' : 'redirect') : display;
    if (shown === 'redirect') {
      this._navigate(url);
      return;
    }
    this.close();
    // The control that opened it, where focus goes back when the page closes (none when the main button, busy
    // meanwhile, lost focus).
    this._opener = (this._host.renderRoot as ShadowRoot).activeElement;
    this.url = url;
    this._origins = origins;
    this.display = shown;
    this.height = undefined;
    if (shown === 'modal') {
      this._screen ??= matchMedia(PHONE);
      this._screen.onchange = this._onScreen;
      this.phone = this._screen.matches;
    }
    this.state = 'loading';
    this._timer = this.later(() => this._settle('fallback'), this.timeoutMs);
    this._host.requestUpdate();
  }

  close(): void {
    clearTimeout(this._timer);
    if (this._screen) this._screen.onchange = null;
    const root = this._host.renderRoot as ShadowRoot | undefined;
    const dialog = root?.querySelector('dialog');
    // The modal (open, or closing: its `close` event brings us here) or the page had focus, and they go.
    const refocus = !!dialog || (!!this.frame && root?.activeElement === this.frame);
    this.url = '';
    // Closing (not just removing) an open dialog gives focus back to where it was, when that is still there.
    dialog?.close();
    this.state = 'idle';
    this._host.requestUpdate();
    if (refocus) this._host.updateComplete.then(() => this._refocus());
  }

  /**
   * Focus left on nothing (the page's `<body>`: what had it is gone) goes to the control that opened the page, else
   * the element's main button, else the element's status or form, so a keyboard or screen reader user goes on
   * from the checkout rather than from the top of the page.
   */
  private _refocus(): void {
    const root = this._host.renderRoot as ShadowRoot;
    const active = document.activeElement;
    if (root.activeElement || (active && active !== document.body)) return;
    const target = [
      this._opener,
      root.querySelector('[part~="button"]'),
      root.querySelector('[part~="status"], [part~="form"]'),
    ].find((e) => e?.isConnected && !(e as HTMLButtonElement).disabled) as HTMLElement | undefined;
    if (!target) return;
    if (target.tabIndex < 0) target.tabIndex = -1;
    target.focus();
  }

  /**
   * Escape closes the modal wherever focus is that the element can see: in the dialog, on the page around it, or
   * in a payment page of the same origin (the sandbox's). Keys pressed in a page of another origin stay there.
   */
  private _onKey = (e: KeyboardEvent): void => {
    const dialog = this._host.renderRoot.querySelector('dialog');
    if (e.key === 'Escape' && !e.defaultPrevented && dialog?.open) dialog.close();
  };

  get frame(): HTMLIFrameElement | null {
    return this._host.renderRoot.querySelector('iframe');
  }

  /** The iframe's `load`: Chromium fires it for blocked frames too, so only a readable same-origin page counts. */
  onLoad = (): void => {
    try {
      this.frame?.contentWindow?.addEventListener('keydown', this._onKey);
      if (this.frame?.contentDocument?.body?.childElementCount) this._settle('ready');
    } catch {
      // Cross-origin: wait for its first message.
    }
  };

  hostConnected(): void {
    window.addEventListener('message', this._onWindowMessage);
    document.addEventListener('keydown', this._onKey);
  }

  hostDisconnected(): void {
    window.removeEventListener('message', this._onWindowMessage);
    document.removeEventListener('keydown', this._onKey);
    clearTimeout(this._timer);
    if (this._screen) this._screen.onchange = null;
  }

  /** The screen changed while the modal is open (a phone turned, a window resized). */
  private _onScreen = (e: MediaQueryListEvent): void => {
    this.phone = e.matches;
    this._host.requestUpdate();
  };

  hostUpdated(): void {
    const dialog = this._host.renderRoot.querySelector('dialog');
    if (dialog?.isConnected && !dialog.open) dialog.showModal();
  }

  private _settle(state: FrameState): void {
    clearTimeout(this._timer);
    if (this.state === 'idle' || this.state === 'ready') return;
    this.state = state;
    this._host.requestUpdate();
  }

  private _onWindowMessage = (e: MessageEvent): void => {
    const frame = this.frame;
    if (!this.url || !frame || e.source !== frame.contentWindow || !this._origins.includes(e.origin)) return;
    const data: unknown = e.data;
    if (!data || typeof data !== 'object' || typeof (data as FrameMessage).type !== 'string') return;
    this._settle('ready');
    const { type, height } = data as FrameMessage;
    if (type === RESIZE_MESSAGE) {
      // The page's content height: the frame shows all of it (the modal still caps it to the screen).
      if (typeof height === 'number' && Number.isFinite(height) && height > 0) {
        this.height = Math.min(Math.ceil(height), MAX_HEIGHT);
        this._host.requestUpdate();
      }
      return;
    }
    this._onMessage(data as FrameMessage);
  };
}
