/**
 * The picker's open list: filtering and ranking what was typed, the options, and the keys that move through
 * them. Loaded the first time a shopper points at, focuses or opens a picker: the closed field (picker.ts) shows
 * the value without it.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { PickerItem, PickerState } from '../picker-state.ts';

export { listStyles } from './picker-list.styles.ts';

/** What the open list adds to one render of a picker. */
export interface PickerList {
  /** The listbox with its options. */
  list: TemplateResult;
  /** The active option's id, for `aria-activedescendant`. */
  activeId?: string;
  onKey(e: KeyboardEvent): void;
  /** Closes the list, picking `x` if it is another value. */
  pick(x?: PickerItem): void;
}

export function pickerList(
  p: PickerState,
  label: string,
  items: () => PickerItem[],
  value: string | undefined,
  onPick: (code: string) => void,
  none: string,
): PickerList {
  const { id, open } = p;
  const q = p._query.trim().toLowerCase();
  const rank = (x: PickerItem) => {
    const s = ` ${x.search}`.toLowerCase();
    return s.includes(` ${q}`) ? 0 : s.includes(q) ? 1 : 2;
  };
  const list = open
    ? items()
        .filter((x) => rank(x) < 2)
        .sort((a, b) => rank(a) - rank(b))
    : [];
  // Opened: the current value is active (and in sight, below), as a native select opens; typed: the best match.
  const active =
    p._active < 0
      ? Math.max(0, q ? 0 : list.findIndex((x) => x.code === value))
      : Math.min(p._active, list.length - 1);
  // The list and its active option in sight: the page scrolled so that a list opened near the bottom of a phone's
  // screen shows below its field, and the list scrolled to the active option.
  const reveal = () =>
    p._host.updateComplete.then(() => {
      const ul = p._host.renderRoot.querySelector(`#${id}-list`);
      ul?.querySelector('[aria-selected=true]')?.scrollIntoView({ block: 'nearest' });
      ul?.scrollIntoView({ block: 'nearest' });
    });
  if (open && !p._shown) reveal();
  p._shown = open;
  const pick = (x?: PickerItem) => {
    if (x && x.code !== value) onPick(x.code);
    p._set(false, '');
    // Still in the field (Enter, Escape): its text selected, so what is typed next replaces it ("Fra", never
    // "AustraliaFra").
    p._host.updateComplete.then(() => {
      const input = p._host.renderRoot.querySelector<HTMLInputElement>(`#${id}`);
      if (input && (input.getRootNode() as ShadowRoot).activeElement === input) input.select();
    });
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) p._set(true);
      else
        p._set(
          true,
          p._query,
          Math.max(0, Math.min(list.length - 1, active + (e.key === 'ArrowDown' ? 1 : -1))),
        );
      // The long lists scroll: keep the active option in sight.
      reveal();
    } else if (e.key === 'Enter' && open) {
      e.preventDefault();
      if (list.length || !q) pick(list[active]);
    } else if (e.key === 'Escape' && open) {
      e.stopPropagation();
      pick();
    }
  };
  return {
    activeId: list[active] ? `${id}-${active}` : undefined,
    onKey,
    pick,
    list: html`<ul id="${id}-list" role="listbox" aria-label=${label} ?hidden=${!list.length && !(open && q && none)}>
      ${open && q && !list.length ? html`<li class="none" role="option" aria-disabled="true" aria-selected="false">${none}</li>` : nothing}
      ${list.map(
        (x, i) => html`<li
          id="${id}-${i}"
          role="option"
          aria-selected=${String(i === active)}
          class=${x.code === value ? 'cur' : ''}
          @mousedown=${(e: Event) => e.preventDefault()}
          @click=${() => pick(x)}
        >
          ${x.icon ?? nothing} ${x.body}
        </li>`,
      )}
    </ul>`,
  };
}
