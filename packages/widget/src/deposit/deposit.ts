/** Deposit mode: the customer's permanent deposit address on a network, with a QR code and a copy button. */
import { Task, TaskStatus } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { ApiError, createDepositAddress } from '../api/client.ts';
import type { Catalog } from '../api/types.ts';
import type { Args, MessageKey } from '../internal/messages.ts';
import { Picker } from '../picker/picker.ts';
import { field, skeleton } from '../view/parts.ts';
import { View } from '../view/view.ts';
import { type DepositKey, depositMessages } from './deposit.messages.ts';
import { depositStyles } from './deposit.styles.ts';

export class DepositView extends View {
  static override styles = depositStyles;

  protected override t(key: DepositKey | MessageKey, args?: Args): string {
    return depositMessages(this._ctx.loc, key, args);
  }

  /** The network picked, or '' for the catalog's first. */
  private _chain = '';
  private _copied = false;
  private _picker = new Picker(this._host, 'chain');

  private _address = this.own(
    new Task(this._host, {
      task: async ([api, token, chain], { signal }) => {
        if (!chain) return undefined;
        if (!token) throw new ApiError('TOKEN_INVALID'); // no customer-token
        return createDepositAddress(api, token, chain, signal);
      },
      args: () => [this._host.api, this._host.customerToken, this._chainId] as const,
      onError: (e) => this._ctx.emitError(e),
    }),
  );

  private get _chainId(): string {
    return this._chain || this._ctx.catalog.value?.chains[0]?.id || '';
  }

  override render(): TemplateResult {
    return this.loaded(this._ctx.catalog, (c) => this._renderAddress(c));
  }

  private async _copy(address: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(address);
    } catch {
      // No Clipboard API (insecure context, permissions): copy from the selected field instead.
      const input = this._host.renderRoot.querySelector<HTMLTextAreaElement>('#address');
      input?.select();
      document.execCommand('copy');
    }
    this._copied = true;
    this._host.requestUpdate();
    setTimeout(() => {
      this._copied = false;
      this._host.requestUpdate();
    }, 2500);
  }

  private _renderAddress(c: Catalog): TemplateResult {
    const a = this._address.value;
    if (!c.chains.length) return html`<p class="empty" role="status">${this.t('noChain')}</p>`;
    const chains = c.chains.map((x) => ({
      code: x.id,
      text: x.name,
      search: `${x.id} ${x.name}`,
      body: x.name,
    }));
    return html`<div part="form" class="form">
      ${this._picker.render(
        this.t('chain'),
        () => chains,
        chains.find((x) => x.code === this._chainId),
        (v) => {
          this._chain = v;
          this._host.requestUpdate();
        },
        '',
        chains.length,
      )}
      ${
        this.failed(this._address) ??
        (!a || this._address.status === TaskStatus.PENDING
          ? skeleton(this._ctx.loc)
          : html`<div class="deposit">
              ${
                /^\s*<svg[\s>]/.test(a.qrSvg)
                  ? html`<img class="qr" src="data:image/svg+xml;charset=utf-8,${encodeURIComponent(a.qrSvg)}" alt=${this.t('qr')} width="176" height="176" />`
                  : nothing
              }
              ${field(
                'address',
                this.t('address'),
                html`<div class="copy">
                  <div class="grow" dir="ltr" data-v=${a.address}><textarea id="address" class="address" readonly rows="1" .value=${a.address}></textarea></div>
                  <button type="button" part="button" @click=${() => this._copy(a.address)}>${this.t('copy')}</button>
                </div>`,
              )}
              ${a.memo ? field('memo', this.t('memo'), html`<input id="memo" dir="ltr" readonly .value=${a.memo} />`) : nothing}
              ${a.currencies.length ? html`<p class="fresh">${this.t('accepts', { currencies: a.currencies.join(', ') })}</p>` : nothing}
              <p class="sr" role="status">${this._copied ? this.t('copied') : ''}</p>
            </div>`)
      }
    </div>`;
  }
}

/** The mode's view, as view/views.ts loads it. */
export { DepositView as default };
