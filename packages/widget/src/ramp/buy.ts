/** Buy mode: pay fiat for crypto sent to the shopper's wallet. */
import { html, nothing, type TemplateResult } from 'lit';
import type { Catalog, Method } from '../api/types.ts';
import { field } from '../view/parts.ts';
import { RampView } from './ramp-view.ts';

export class BuyView extends RampView {
  readonly side = 'buy';

  /** The wallet address typed (when the `wallet-address` attribute gives none). */
  private _wallet = '';
  /** Continue was pressed without a wallet address. */
  private _walletMissing = false;

  protected _methodsOf(c: Catalog): Method[] {
    return c.paymentMethods;
  }

  protected get _pickedMethod(): string {
    return this._host.paymentMethod;
  }

  protected set _pickedMethod(id: string) {
    this._host.paymentMethod = id;
  }

  protected _defaultMethod(c: Catalog): string | null {
    return c.defaults.paymentMethod;
  }

  protected override _extraFields(): TemplateResult | typeof nothing {
    if (this._host.walletAddress) return nothing;
    return field(
      'wallet',
      this.t('wallet'),
      // A textarea that wraps: the whole address stays in sight on a phone (an input scrolled its start away). It
      // grows with the address through the copy of its text in `data-v` (ramp.styles.ts). Left to right in every
      // language: an address is checked character by character.
      html`<div class="grow" dir="ltr" data-v=${this._wallet}><textarea id="wallet" class="address" rows="1" required autocomplete="off" spellcheck="false"
        .value=${this._wallet} aria-invalid=${String(this._walletMissing)} aria-describedby="wallet-msg"
        @keydown=${(e: KeyboardEvent) => {
          // One line of text: Enter submits, as in any other field of the form.
          if (e.key !== 'Enter' || e.isComposing) return;
          e.preventDefault();
          (e.target as HTMLTextAreaElement).form?.requestSubmit();
        }}
        @input=${(e: Event) => {
          this._wallet = (e.target as HTMLTextAreaElement).value;
          this._walletMissing = false;
          this._host.requestUpdate();
        }}></textarea></div>
      <p id="wallet-msg" class="msg" role="alert">${this._walletMissing ? this.t('walletMissing') : ''}</p>`,
    );
  }

  /** The ramp needs somewhere to send what is bought: ask here rather than send a request bound to fail. */
  protected override _sessionExtras(): Record<string, string> | undefined {
    const wallet = this._host.walletAddress || this._wallet.trim();
    if (wallet) return { walletAddress: wallet };
    this._walletMissing = true;
    this._host.requestUpdate();
    this._host.renderRoot.querySelector<HTMLTextAreaElement>('#wallet')?.focus();
    return undefined;
  }
}

/** The mode's view, as view/views.ts loads it. */
export { BuyView as default };
