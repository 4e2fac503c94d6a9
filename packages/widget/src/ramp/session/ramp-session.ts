/**
 * Buy and sell after Continue: the signed ramp session's page shown (while it is inline, the form collapses into
 * a one-line summary with Change, which closes the page and brings the form back), and the page's success
 * announced. Loaded with the frame's code, when Continue is pressed or once the form shows and the browser is
 * idle: a shopper who never continues never downloads it.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { RampSession as Session, Side } from '../../api/types.ts';
import type { FrameMessage } from '../../frame/frame-controller.ts';
import { CheckoutCloseEvent, CheckoutOrderEvent } from '../../frame/outcome-events.ts';
import { statusStyles } from '../../status/status.styles.ts';
import type { CheckoutHost, ViewContext } from '../../view/view.ts';
import type { RampKey } from '../ramp.messages.ts';
import { sessionStyles } from './session.styles.ts';

/** What the session needs of its ramp view. */
export interface SessionOwner {
  host: CheckoutHost & { _addStyles?(styles: typeof sessionStyles): void };
  ctx: ViewContext;
  side: Side;
  t(key: RampKey): string;
  /** The amount field typed in last: focused when Change brings the form back. */
  input(): 'fiat' | 'crypto';
}

/** What a session's page was opened for: the amounts (what goes in, then what comes out), the method, the country. */
export type Summary = [amounts: [string, string], method: string | undefined, country: string];

export class RampSession {
  /** The ramp's page said the order went through. */
  done = false;
  private _orderId?: string;
  /** What the page was opened for, in one line: the form collapses into it while that page is inline. */
  private _summary: TemplateResult | '' = '';

  constructor(private _owner: SessionOwner) {
    _owner.host._addStyles?.(statusStyles);
    _owner.host._addStyles?.(sessionStyles);
  }

  /** Whether the ramp page is open inline: the form is then a summary above it, so there is one place to act. */
  get collapsed(): boolean {
    const f = this._owner.ctx.frame;
    return !!this._summary && !!f?.url && f.display === 'inline';
  }

  /**
   * Shows the page of session `s`, signed for what `summary` says (after `loadFrame`): its line reads
   * `€100.00 → 0.00123 BTC · Card · Germany`, the amounts left to right in every language (a right-to-left line
   * would put `BTC` before its figure).
   */
  open(s: Session, [[from, to], method, country]: Summary): void {
    const { host, ctx, side } = this._owner;
    this._orderId = undefined;
    this._summary = html`<bdi dir="ltr">${from} → ${to}</bdi>${[method, country].filter(Boolean).map((x) => ` · ${x}`)}`;
    host.dispatchEvent(new CheckoutOrderEvent({ kind: side, url: s.url, expiresAt: s.expiresAt }));
    ctx.open(s.url, [s.origin || new URL(s.url).origin]);
    // The button pressed is gone with the form: the shopper goes on in the ramp page, not at the page's top.
    if (this.collapsed) host.updateComplete.then(() => ctx.frame?.frame?.focus());
  }

  onFrameMessage(m: FrameMessage): void {
    const data = (m.data && typeof m.data === 'object' ? m.data : {}) as Record<string, unknown>;
    // The ramp's order id comes with SWAPPED_ORDER_DATA and the success messages (docs/upstream.md#postmessage).
    if (typeof data.order_id === 'string') this._orderId = data.order_id;
    if (m.type === 'SWAPPED_TRANSACTION_SUCCESSFUL' || m.type === 'SWAPPED_WITHDRAWAL_SUCCESSFUL') {
      this.done = true;
      this._owner.ctx.complete({
        kind: this._owner.side,
        status: 'completed',
        ...(this._orderId ? { orderId: this._orderId } : {}),
      });
      this._owner.host.requestUpdate();
    }
  }

  /** The summary line with Change, while the page is inline. */
  render(): TemplateResult {
    return html`<div part="summary" class="summary">
        <p id="summary">${this._summary}</p>
        ${this.done ? nothing : html`<button type="button" aria-describedby="summary" @click=${() => this._change()}>${this._owner.t('change')}</button>`}
      </div>
      ${this.status()}`;
  }

  /** The outcome, once the page said the order went through. */
  status(): TemplateResult | typeof nothing {
    return this.done
      ? html`<p part="status" class="status paid" role="status">${this._owner.t('done')}</p>`
      : nothing;
  }

  /**
   * "Change": the ramp page is closed (the session it was signed for is dropped: its amount cannot change) and
   * the form comes back as it was, the amount typed kept and a fresh quote asked for; Continue signs a new one.
   */
  private _change(): void {
    const { host, ctx } = this._owner;
    this._summary = '';
    ctx.frame?.close();
    host.dispatchEvent(new CheckoutCloseEvent({ reason: 'user' }));
    host.updateComplete.then(() =>
      host.renderRoot.querySelector<HTMLElement>(`#${this._owner.input()}`)?.focus(),
    );
  }
}
