/**
 * A searchable picker (ARIA combobox + listbox) rendered into its host's shadow root: type to filter (matches
 * at a word's start first), arrows to move, Enter to pick, Escape to close, a click picks. Its state (the query,
 * whether the list is open, the active option) is its own; the value is the caller's.
 */
import { html, nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { field } from '../views/parts.ts';

/**
 * An entry: `text` shows in the closed field, `search` is what typing matches, `body` is the option's content
 * beside `icon`; `fieldIcon` goes beside the closed field instead of `icon` (where an image must say what the
 * option's text would).
 */
export interface PickerItem {
  code: string;
  text: string;
  search: string;
  icon?: unknown;
  fieldIcon?: unknown;
  body: unknown;
  /** Shown in the closed field when it is the value, never offered in the list (a country that is not served). */
  unlisted?: boolean;
}

type Host = ReactiveControllerHost & { renderRoot: ParentNode };

export class Picker {
  private _query = '';
  private _open = false;
  private _active = 0;

  /** `id` is the input's id; the list is `${id}-list`, its options `${id}-0`, `${id}-1`, … */
  constructor(
    private _host: Host,
    readonly id: string,
  ) {}

  get open(): boolean {
    return this._open;
  }

  private _set(open: boolean, query = this._query, active = 0): void {
    this._open = open;
    this._query = query;
    this._active = active;
    this._host.requestUpdate();
  }

  /**
   * The field with its label; `onPick` hears of a pick of another value than `value`. `none`: the row shown
   * when nothing matches what was typed (Enter then keeps the query rather than silently reverting).
   */
  render(
    label: string,
    items: PickerItem[],
    value: string | undefined,
    onPick: (code: string) => void,
    none = '',
  ): TemplateResult {
    const { id } = this;
    const open = this._open;
    const q = this._query.trim().toLowerCase();
    const rank = (x: PickerItem) => {
      const s = ` ${x.search}`.toLowerCase();
      return s.includes(` ${q}`) ? 0 : s.includes(q) ? 1 : 2;
    };
    const list = open
      ? items.filter((x) => !x.unlisted && rank(x) < 2).sort((a, b) => rank(a) - rank(b))
      : [];
    const active = Math.min(this._active, list.length - 1);
    const selected = items.find((x) => x.code === value);
    const pick = (x?: PickerItem) => {
      if (x && x.code !== value) onPick(x.code);
      this._set(false, '');
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        if (!open) this._set(true);
        else
          this._set(
            true,
            this._query,
            Math.max(0, Math.min(list.length - 1, active + (e.key === 'ArrowDown' ? 1 : -1))),
          );
        // The long lists scroll: keep the active option in sight.
        this._host.updateComplete.then(() =>
          this._host.renderRoot
            .querySelector(`#${id}-list [aria-selected=true]`)
            ?.scrollIntoView({ block: 'nearest' }),
        );
      } else if (e.key === 'Enter' && open) {
        e.preventDefault();
        if (list.length || !q) pick(list[active]);
      } else if (e.key === 'Escape' && open) {
        e.stopPropagation();
        pick();
      }
    };
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
          aria-activedescendant=${list[active] ? `${id}-${active}` : nothing}
          .value=${open ? this._query : (selected?.text ?? '')}
          @input=${(e: Event) => this._set(true, (e.target as HTMLInputElement).value)}
          @click=${() => this._set(!open, this._query)}
          @keydown=${onKey}
          @focus=${(e: Event) => (e.target as HTMLInputElement).select()}
          @blur=${() => pick()}
        />
      </div>
      <ul id="${id}-list" role="listbox" aria-label=${label} ?hidden=${!list.length && !(open && q && none)}>
        ${open && q && !list.length ? html`<li class="none" role="option" aria-disabled="true" aria-selected="false">${none}</li>` : nothing}
        ${list.map(
          (x, i) => html`<li
            id="${id}-${i}"
            role="option"
            aria-selected=${String(i === active)}
            @mousedown=${(e: Event) => e.preventDefault()}
            @click=${() => pick(x)}
          >
            ${x.icon ?? nothing} ${x.body}
          </li>`,
        )}
      </ul>`,
    );
  }
}
