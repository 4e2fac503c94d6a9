/**
 * The element's modes: the one list. Each mode names the folder of its view, `src/<folder>/<mode>.ts`, which is
 * also the chunk a page of that mode downloads first (buy and sell share ramp/). Derived from it: the `mode`
 * property's type (`CheckoutMode`), the views' loaders (view/views.ts, typed against it), the script-tag loader
 * and its chunks (vite.config.ts), and the size test's modes (test/package.test.ts). Its docs are held to it by
 * test/manifest.test.ts. No imports: the build's config reads it too.
 */
export const MODES = {
  buy: 'ramp',
  sell: 'ramp',
  pay: 'pay',
  deposit: 'deposit',
} as const;

/** What the element does: a key of `MODES`. */
export type CheckoutMode = keyof typeof MODES;

/** The mode of an element without a `mode` attribute. */
export const DEFAULT_MODE: CheckoutMode = 'pay';
