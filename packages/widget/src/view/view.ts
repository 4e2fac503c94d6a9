/**
 * What a mode's view is: a plain object that renders into the element's shadow root and keeps its own state,
 * with the element (`CheckoutHost`) giving it the public properties, the locale, the frame and the events.
 * The element holds exactly one view, the one of its `mode`; a view never reads another's state.
 */
import { TaskStatus } from '@lit/task';
import type {
  CSSResultGroup,
  PropertyValues,
  ReactiveController,
  ReactiveControllerHost,
  TemplateResult,
} from 'lit';
import type { Quote } from '../api/types.ts';
import type { CatalogController } from '../controllers/catalog-controller.ts';
import type { CheckoutCompleteDetail, CheckoutMode, CheckoutReadyDetail } from '../events.ts';
import type { Display, FrameController, FrameMessage } from '../frame/frame-controller.ts';
import { formatMoney } from '../internal/locale.ts';
import { type Args, type MessageKey, msg } from '../internal/messages.ts';
import type { QuoteController } from '../ramp/quote-controller.ts';
import { errorBox, skeleton } from './parts.ts';

/** The element as its views see it: its public properties (a view updates the shopper's picks there). */
export interface CheckoutHost extends HTMLElement, ReactiveControllerHost {
  api: string;
  mode: CheckoutMode;
  product: string;
  checkoutToken: string;
  customerToken: string;
  fiat: string;
  crypto: string;
  amount: string;
  country: string;
  paymentMethod: string;
  payoutMethod: string;
  walletAddress: string;
  display: Display;
  returnUrl: string;
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly hasUpdated: boolean;
}

/** What the element gives its view beyond its properties: shared controllers and the element's own duties. */
export interface ViewContext {
  /** The valid BCP 47 locale in use. */
  readonly loc: string;
  /** The ramp catalog for the element's country (buy, sell, deposit). */
  readonly catalog: CatalogController;
  /**
   * Live quotes (buy, sell). The element's own, so that the quote its attributes fully specify leaves with the
   * catalog, before the view's code is here; its answers go to the view's `onQuote`. Made with the class the
   * view brings on first call: a page of another mode never downloads its code.
   */
  quotes(Controller: typeof QuoteController): QuoteController;
  /** The payment or ramp page, inline or in a modal, once its code has loaded (`loadFrame`). */
  readonly frame: FrameController | undefined;
  /**
   * Loads the frame's code (once; a no-op when it is here). A view calls it when its main button is pressed,
   * beside its request, and awaits it before `open`. Rejects with NETWORK_ERROR when the code cannot load.
   */
  loadFrame(): Promise<FrameController>;
  /** Shows a payment or ramp page (a new attempt: its completion is announced afresh); after `loadFrame`. */
  open(url: string, origins: string[]): void;
  /** Emits `checkout-ready`: the view shows its form (the element then fetches what its button will need). */
  ready(detail: CheckoutReadyDetail): void;
  /** Emits `checkout-error` for a failure. */
  emitError(e: unknown): void;
  /** Emits `checkout-complete` once per attempt, then goes to `return-url` unless prevented. */
  complete(detail: CheckoutCompleteDetail): void;
  /** `return-url` made absolute, as the backend's bodies take it. */
  returnTo(): { returnUrl?: string };
}

/** What the render helpers need of a Task: its value, its state, and a way to run it again. */
export interface Loadable<T> {
  value?: T;
  status: TaskStatus;
  error: unknown;
  run(): unknown;
  /** Offer a retry whatever the error (a read): a refusal the shopper cannot fix is still not a dead end. */
  alwaysRetry?: boolean;
}

export abstract class View {
  /** The view's own CSS, adopted beside the element's while the view is shown. */
  static styles?: CSSResultGroup;

  /** Controllers this view added to the host: removed with the view. */
  private _controllers: ReactiveController[] = [];

  constructor(
    protected _host: CheckoutHost,
    protected _ctx: ViewContext,
  ) {}

  /** Adds a controller for the view's lifetime (a Task or controller calls `host.addController` itself). */
  protected own<C extends ReactiveController>(controller: C): C {
    this._controllers.push(controller);
    return controller;
  }

  /** Called before each render, with the host's changed properties. */
  willUpdate(_changed: PropertyValues): void {}

  abstract render(): TemplateResult;

  /** A quote was announced (the latest answer for the latest request). */
  onQuote(_q: Quote): void {}

  /** The form shows and the browser is idle: load the code its main button will need (beside the frame's). */
  prefetch(): void {}

  /** A message from the payment or ramp page the frame shows. */
  onFrameMessage(_m: FrameMessage): void {}

  /** The modal's title (its accessible name): what the page in it is for. */
  frameTitle(): string | undefined {
    return undefined;
  }

  /** The view is no longer shown (another mode, or the element left the page). */
  dispose(): void {
    for (const c of this._controllers) {
      // A Task still running is aborted, so nothing of this view settles after it is gone.
      (c as { abort?: () => void }).abort?.();
      c.hostDisconnected?.();
      this._host.removeController(c);
    }
    this._controllers = [];
  }

  protected t(key: MessageKey, args?: Args): string {
    return msg(this._ctx.loc, key, args);
  }

  protected money(amount: string, currency: string): string {
    return formatMoney(amount, currency, this._ctx.loc);
  }

  /** A task's content once it has a value (kept while it reloads), else its error or a skeleton. */
  protected loaded<T>(task: Loadable<T>, ready: (value: T) => TemplateResult): TemplateResult {
    return task.value ? ready(task.value) : (this.failed(task) ?? skeleton(this._ctx.loc));
  }

  /** The task's error with a retry, if its last run failed. */
  protected failed(task: Loadable<unknown>): TemplateResult | undefined {
    return task.status === TaskStatus.ERROR
      ? errorBox(this._ctx.loc, task.error, () => task.run(), task.alwaysRetry)
      : undefined;
  }

  protected error(e: unknown, retry?: () => void): TemplateResult {
    return errorBox(this._ctx.loc, e, retry);
  }
}
