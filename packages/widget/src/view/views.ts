/**
 * Each mode's view, loaded when a page first shows that mode: a bundler makes each a chunk of its own, so a
 * page pays only for the modes it shows, and a mode switch loads the next view once (the module is cached).
 * One loader per mode of ../modes.ts (the type holds them to it), each of `<folder>/<mode>.ts`, whose default
 * export is the view's class: an import() a bundler can follow names its file.
 */
import type { CSSResultGroup } from 'lit';
import type { CheckoutMode } from '../modes.ts';
import type { CheckoutHost, View, ViewContext } from './view.ts';

export type ViewClass = (new (host: CheckoutHost, ctx: ViewContext) => View) & { styles?: CSSResultGroup };

export const views: { [M in CheckoutMode]: () => Promise<{ default: ViewClass }> } = {
  buy: () => import('../ramp/buy.ts'),
  sell: () => import('../ramp/sell.ts'),
  pay: () => import('../pay/pay.ts'),
  deposit: () => import('../deposit/deposit.ts'),
};
