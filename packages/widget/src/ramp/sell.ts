/** Sell mode: send crypto, get fiat paid out by the shopper's payout method. */
import type { Catalog, Method } from '../api/types.ts';
import { RampView } from './ramp-view.ts';

export class SellView extends RampView {
  readonly side = 'sell';

  protected _methodsOf(c: Catalog): Method[] {
    return c.payoutMethods;
  }

  protected get _pickedMethod(): string {
    return this._host.payoutMethod;
  }

  protected set _pickedMethod(id: string) {
    this._host.payoutMethod = id;
  }

  protected _defaultMethod(c: Catalog): string | null {
    return c.defaults.payoutMethod;
  }
}

/** The mode's view, as view/views.ts loads it. */
export { SellView as default };
