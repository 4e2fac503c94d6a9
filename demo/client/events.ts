/** Pages that only show the element: list its events beside it. */
import { attachEventLog } from './lib/event-log.ts';

attachEventLog();
