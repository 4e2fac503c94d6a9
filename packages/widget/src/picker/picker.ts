/**
 * A searchable picker (ARIA combobox + listbox) rendered into its host's shadow root: type to filter (matches
 * at a word's start first), arrows to move, Enter to pick, Escape to close, a click picks. Its state (the query,
 * whether the list is open, the active option) is its own; the value is the caller's.
 *
 * The closed field is here; the open list's code (list/picker-list.ts) loads the first time the shopper points at,
 * focuses or opens the field, and the list shows once it is here.
 *
 * On a phone: the list opens scrolled into view with the current choice active and in sight (list/picker-list.ts),
 * and a list of `FEW` entries or fewer raises no on-screen keyboard (`inputmode="none"`): eight lines are read
 * faster than typed, and the keyboard would cover half of them. A hardware keyboard still types to filter.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { loadOnce } from '../internal/load-once.ts';
import { field } from '../view/parts.ts';
import type { pickerList } from './list/picker-list.ts';
import type { PickerHost, PickerItem, PickerState } from './picker-state.ts';

/** The most entries a list has for its field to raise no on-screen keyboard: see the class's comment. */
export const FEW = 8;

export class Picker implements PickerState {
  /** What was typed (read by the list's code, like `_active`; set through `_set`). */
  _query = '';
  /** The active option's index; -1: the current value's when nothing is typed (a list just opened), else the first. */
  _active = 0;
  /** The list showed open at its last render (it is scrolled into view when it opens). */
  _shown?: boolean;
  private _open = false;
  private _list?: typeof pickerList;
  private _idle?: number;

  /** `id` is the input's id; the list is `${id}-list`, its options `${id}-0`, `${id}-1`, … */
  constructor(
    readonly _host: PickerHost,
    readonly id: string,
  ) {}

  get open(): boolean {
    return this._open;
  }

  _set(open: boolean, query = this._query, active = -1): void {
    this._open = open;
    this._query = query;
    this._active = active;
    this._host.requestUpdate();
  }

  private _load = loadOnce(() =>
    import('./list/picker-list.ts').then((m) => {
      this._list = m.pickerList;
      this._host._addStyles?.(m.listStyles);
      this._host.requestUpdate();
    }),
  );

  /** Loads the list's code, once; a failed load is tried again on the next touch. */
  load(): Promise<void> {
    return this._load().catch(() => {});
  }

  /**
   * The field with its label, showing `selected` (the value, which the list need not offer: a country that is
   * not served); `onPick` hears of a pick of another value. `items` is asked for only while the list is open:
   * naming and sorting 250 countries is not free, and a first quote should not wait for it. `none`: the row
   * shown when nothing matches what was typed (Enter then keeps the query rather than silently reverting).
   * `count`: how many entries the list has, where the caller knows it without making them (see `FEW`).
   */
  render(
    label: string,
    items: () => PickerItem[],
    selected: PickerItem | undefined,
    onPick: (code: string) => void,
    none = '',
    count?: number,
  ): TemplateResult {
    const { id } = this;
    const open = this._open;
    // Open before its code is here: load it now; else when the browser is idle, so a click opens at once.
    if (open) this.load();
    else if (!this._idle && typeof requestIdleCallback === 'function')
      this._idle = requestIdleCallback(() => this.load(), { timeout: 3000 });
    const l = this._list?.(this, label, items, selected?.code, onPick, none);
    return field(
      id,
      label,
      html`<div class="combo-input">
        ${selected ? (selected.fieldIcon ?? selected.icon ?? nothing) : nothing}
        <input
          id=${id}
          role="combobox"
          autocomplete="off"
          aria-autocomplete="list"
          aria-controls="${id}-list"
          aria-expanded=${String(open)}
          aria-activedescendant=${l?.activeId ?? nothing}
          inputmode=${(count as number) <= FEW ? 'none' : nothing}
          .value=${open ? this._query : (selected?.text ?? '')}
          @input=${(e: Event) => this._set(true, (e.target as HTMLInputElement).value)}
          @click=${() => this._set(!open)}
          @keydown=${(e: KeyboardEvent) => {
            if (l) l.onKey(e);
            else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              // Opens: the list shows once its code is here.
              e.preventDefault();
              this._set(true);
            } else if (e.key === 'Escape' && open) {
              e.stopPropagation();
              this._set(false, '');
            }
          }}
          @focus=${(e: Event) => {
            (e.target as HTMLInputElement).select();
            this.load();
          }}
          @pointerenter=${() => this.load()}
          @blur=${() => (l ? l.pick() : this._set(false, ''))}
        />
      </div>
      ${l ? l.list : html`<ul id="${id}-list" role="listbox" aria-label=${label} hidden></ul>`}`,
    );
  }
}
