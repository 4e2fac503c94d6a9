/**
 * What the shopper must know of an order's money beside its status: underpaid, the exact rest, where to send it
 * (with a copy button) and the time left; overpaid, what arrived beyond what was due and that the merchant returns
 * it; a refund's claim page once the merchant has asked for one. From the backend's view of the order (its
 * `settlement` and `refunds`), in the locale's words and digits. A lazy part of its own (vite.config.ts): loaded
 * only when an order's money goes wrong.
 */
import { html, nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { OrderView } from '../../../api/types.ts';
import { type Decimal, intl } from '../../../internal/locale.ts';
import { languageFor } from '../../../internal/messages.ts';
import { type OrderKey, orderMessages } from '../order.messages.ts';
import { restOf } from '../settlement-of.ts';
import { settlementStyles } from './settlement.styles.ts';
import { formatClock, TimeLeft } from './time-left.ts';

/** A crypto amount exactly as the backend states it (every digit), in `locale`'s way, with its code. */
export function formatExact(amount: string, currency: string, locale: string): string {
  const number = intl(`=${locale}`, () => new Intl.NumberFormat(locale, { maximumFractionDigits: 20 }));
  const text = `${number.format(amount as Decimal)} ${currency}`;
  return languageFor(locale)?.isolated(text) ?? text;
}

export class SettlementView {
  private _time: TimeLeft;
  /** The address copied last (its button says so until another is shown). */
  private _copied?: string;

  constructor(
    private _host: ReactiveControllerHost & { _addStyles?(styles: typeof settlementStyles): void },
  ) {
    _host._addStyles?.(settlementStyles);
    this._time = new TimeLeft(_host);
  }

  /** The status line of `view` where its money says more than its status: the rest that is still due. */
  statusLine(view: OrderView | undefined, loc: string): string | undefined {
    const rest = restOf(view);
    return rest
      ? orderMessages(loc, 'underpaidRest', { amount: formatExact(rest.amount, rest.currency, loc) })
      : undefined;
  }

  /** What follows the status: the rest's address and time left, or the excess, and a refund's claim page. */
  render(view: OrderView | undefined, loc: string): TemplateResult | typeof nothing {
    const t = (key: OrderKey, args?: Record<string, string>) => orderMessages(loc, key, args);
    const settlement = view?.settlement;
    const rest = restOf(view);
    this._time.set(rest ? settlement?.payBy : undefined);
    // The excess once the order is counted overpaid (or paid late): a payment read before its status (the upstream
    // may list one while the order still awaits payment: docs/upstream.md) says nothing to the shopper yet.
    const excess =
      view?.status === 'overpaid' || view?.status === 'paid_late' ? settlement?.excess : undefined;
    const claim = view?.refunds?.find((refund) => refund.status !== 'cancelled');
    if (!rest && !excess && !claim) return nothing;
    const address = rest && settlement?.payTo?.address;
    const seconds = this._time.seconds;
    return html`<div part="settlement" class="settlement">
      ${
        address
          ? html`<p>${settlement?.payTo?.network ? t('sendTo', { network: settlement.payTo.network }) : t('sendToAddress')}</p>
            <div class="address">
              <code part="address">${address}</code>
              <button type="button" @click=${() => this._copy(address)}>
                ${this._copied === address ? t('copied') : t('copy')}
              </button>
            </div>
            ${settlement?.payTo?.memo ? html`<p>${t('memo', { memo: settlement.payTo.memo })}</p>` : nothing}`
          : nothing
      }
      ${
        rest && seconds !== undefined
          ? html`<p part="time-left" class="time-left">
              <time datetime=${settlement?.payBy ?? ''}>
                ${seconds > 0 ? t('timeLeft', { time: formatClock(seconds, loc) }) : t('timeUp')}
              </time>
            </p>`
          : nothing
      }
      ${excess && settlement ? html`<p>${t('excess', { amount: formatExact(excess, settlement.due.currency, loc) })}</p>` : nothing}
      ${claim ? html`<a part="link" href=${claim.claimUrl} target="_blank" rel="noopener">${t('claimRefund')}</a>` : nothing}
    </div>`;
  }

  private async _copy(address: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(address);
      this._copied = address;
    } catch {
      // No clipboard here (a frame without the permission, an old browser): the address stays to be selected.
      this._copied = undefined;
    }
    this._host.requestUpdate();
  }
}
