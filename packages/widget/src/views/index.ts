/**
 * Each mode's view, loaded when a page first shows that mode: a bundler makes each a chunk of its own, so a
 * page pays only for the modes it shows, and a mode switch loads the next view once (the module is cached).
 */
import type { CSSResultGroup } from 'lit';
import type { CheckoutMode } from '../events.ts';
import type { CheckoutHost, View, ViewContext } from './view.ts';

export type ViewClass = (new (host: CheckoutHost, ctx: ViewContext) => View) & { styles?: CSSResultGroup };

export const views: Record<CheckoutMode, () => Promise<ViewClass>> = {
  buy: () => import('./buy.ts').then((m) => m.BuyView),
  sell: () => import('./sell.ts').then((m) => m.SellView),
  pay: () => import('./pay.ts').then((m) => m.PayView),
  deposit: () => import('./deposit.ts').then((m) => m.DepositView),
};
