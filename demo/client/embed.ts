/** The script-tag example: copy buttons for the snippet. */
import { attachCopyButtons } from './lib/copy.ts';

attachCopyButtons();
