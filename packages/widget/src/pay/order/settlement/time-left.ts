/**
 * The time a shopper has left to pay the rest of an order, live: the element re-renders once a second while a
 * deadline is set and not yet passed, and stops when it has (or the element leaves the page).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { intl } from '../../../internal/locale.ts';
import { languageFor } from '../../../internal/messages.ts';

export class TimeLeft implements ReactiveController {
  private _until = Number.NaN;
  private _timer?: ReturnType<typeof setInterval>;

  constructor(private _host: ReactiveControllerHost) {
    _host.addController(this);
  }

  /** Counts down to `iso` (an ISO time); undefined stops counting. */
  set(iso: string | undefined): void {
    const until = iso ? Date.parse(iso) : Number.NaN;
    if (until === this._until || (Number.isNaN(until) && Number.isNaN(this._until))) return;
    this._until = until;
    this._tick();
  }

  /** Whole seconds left (0 once passed), or undefined with no deadline. */
  get seconds(): number | undefined {
    return Number.isNaN(this._until) ? undefined : Math.max(0, Math.ceil((this._until - Date.now()) / 1000));
  }

  hostConnected(): void {
    this._tick();
  }

  hostDisconnected(): void {
    clearInterval(this._timer);
    this._timer = undefined;
  }

  private _tick(): void {
    const running = (this.seconds ?? 0) > 0;
    if (running && !this._timer)
      this._timer = setInterval(() => {
        if (!this.seconds) this.hostDisconnected();
        this._host.requestUpdate();
      }, 1000);
    else if (!running) this.hostDisconnected();
  }
}

/**
 * `seconds` as a clock in `locale`'s digits: `4:05`, `1:04:05` past an hour, isolated left to right where the
 * language reads right to left (`٤:٠٥` stays minutes then seconds).
 */
export function formatClock(seconds: number, locale: string): string {
  const two = intl(`:${locale}`, () => new Intl.NumberFormat(locale, { minimumIntegerDigits: 2 }));
  const one = intl(`#${locale}`, () => new Intl.NumberFormat(locale, { useGrouping: false }));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const clock = h
    ? `${one.format(h)}:${two.format(m)}:${two.format(s)}`
    : `${one.format(m)}:${two.format(s)}`;
  return languageFor(locale)?.isolated(clock) ?? clock;
}
