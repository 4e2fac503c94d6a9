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

type Host = ReactiveControllerHost & { renderRoot: ParentNode };

export class FrameController implements ReactiveController {
  url = '';
  display: 'inline' | 'modal' = 'inline';
  state: FrameState = 'idle';

  private origins: string[] = [];
  private timer?: ReturnType<typeof setTimeout>;

  constructor(
    private host: Host,
    private onMessage: (message: FrameMessage) => void,
    private navigate: (url: string) => void,
    /** How long a frame may stay silent before the new-tab offer appears. */
    public timeoutMs = 4000,
  ) {
    host.addController(this);
  }

  /** Shows `url`; messages are accepted from `origins` only. Returns how it was shown. */
  open(url: string, origins: string[], display: Display): 'inline' | 'modal' | 'redirect' {
    const shown =
      display === 'auto' ? (matchMedia('(min-width: 640px)').matches ? 'modal' : 'redirect') : display;
    if (shown === 'redirect') {
      this.navigate(url);
      return shown;
    }
    this.close();
    this.url = url;
    this.origins = origins;
    this.display = shown;
    this.state = 'loading';
    this.timer = setTimeout(() => this.settle('fallback'), this.timeoutMs);
    this.host.requestUpdate();
    return shown;
  }

  close(): void {
    clearTimeout(this.timer);
    this.url = '';
    // Closing (not just removing) an open dialog gives focus back to where it was.
    this.host.renderRoot?.querySelector('dialog')?.close();
    this.state = 'idle';
    this.host.requestUpdate();
  }

  get frame(): HTMLIFrameElement | null {
    return this.host.renderRoot.querySelector('iframe');
  }

  /** The iframe's `load`: Chromium fires it for blocked frames too, so only a readable same-origin page counts. */
  onLoad = (): void => {
    try {
      if (this.frame?.contentDocument?.body?.childElementCount) this.settle('ready');
    } catch {
      // Cross-origin: wait for its first message.
    }
  };

  hostConnected(): void {
    window.addEventListener('message', this.onWindowMessage);
  }

  hostDisconnected(): void {
    window.removeEventListener('message', this.onWindowMessage);
    clearTimeout(this.timer);
  }

  hostUpdated(): void {
    const dialog = this.host.renderRoot.querySelector('dialog');
    if (dialog?.isConnected && !dialog.open) dialog.showModal();
  }

  private settle(state: FrameState): void {
    clearTimeout(this.timer);
    if (this.state === 'idle' || this.state === 'ready') return;
    this.state = state;
    this.host.requestUpdate();
  }

  private onWindowMessage = (e: MessageEvent): void => {
    const frame = this.frame;
    if (!this.url || !frame || e.source !== frame.contentWindow || !this.origins.includes(e.origin)) return;
    const data: unknown = e.data;
    if (!data || typeof data !== 'object' || typeof (data as FrameMessage).type !== 'string') return;
    this.settle('ready');
    this.onMessage(data as FrameMessage);
  };
}
