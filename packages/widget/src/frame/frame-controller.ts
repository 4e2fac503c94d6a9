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

type Host = ReactiveControllerHost & { renderRoot: ParentNode };

export class FrameController implements ReactiveController {
  url = '';
  display: 'inline' | 'modal' = 'inline';
  state: FrameState = 'idle';
  /** The page's own height in CSS pixels, when it says it (`SWAPPED_RESIZE`); the frame is sized to it. */
  height?: number;

  private _origins: string[] = [];
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
    this.url = url;
    this._origins = origins;
    this.display = shown;
    this.height = undefined;
    this.state = 'loading';
    this._timer = this.later(() => this._settle('fallback'), this.timeoutMs);
    this._host.requestUpdate();
  }

  close(): void {
    clearTimeout(this._timer);
    this.url = '';
    // Closing (not just removing) an open dialog gives focus back to where it was.
    this._host.renderRoot?.querySelector('dialog')?.close();
    this.state = 'idle';
    this._host.requestUpdate();
  }

  get frame(): HTMLIFrameElement | null {
    return this._host.renderRoot.querySelector('iframe');
  }

  /** The iframe's `load`: Chromium fires it for blocked frames too, so only a readable same-origin page counts. */
  onLoad = (): void => {
    try {
      if (this.frame?.contentDocument?.body?.childElementCount) this._settle('ready');
    } catch {
      // Cross-origin: wait for its first message.
    }
  };

  hostConnected(): void {
    window.addEventListener('message', this._onWindowMessage);
  }

  hostDisconnected(): void {
    window.removeEventListener('message', this._onWindowMessage);
    clearTimeout(this._timer);
  }

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
