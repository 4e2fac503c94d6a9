/**
 * What a picker is to its open list (list/picker-list.ts, loaded later): its entries, and the state the list reads
 * and sets. The picker (picker.ts) is one; the list imports this, not the picker, so neither imports the other.
 */
import type { CSSResult, ReactiveControllerHost } from 'lit';

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
}

/** The host; one that can adopt CSS (`_addStyles`, the element) gets the list's. */
export type PickerHost = ReactiveControllerHost & {
  renderRoot: ParentNode;
  _addStyles?(styles: CSSResult): void;
};

/** The picker's state as its list reads and sets it. */
export interface PickerState {
  /** The input's id; the list is `${id}-list`, its options `${id}-0`, `${id}-1`, … */
  readonly id: string;
  readonly open: boolean;
  readonly _host: PickerHost;
  /** What was typed (set through `_set`). */
  readonly _query: string;
  /** The active option's index; -1: the current value's when nothing is typed (a list just opened), else the first. */
  readonly _active: number;
  /** The list showed open at its last render (it is scrolled into view when it opens). */
  _shown?: boolean;
  _set(open: boolean, query?: string, active?: number): void;
}
