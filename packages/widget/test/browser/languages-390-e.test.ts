// Every mode and state at 390 px in Norwegian Bokmål, Dutch and Polish:
// nothing left in English, nothing cut (languages-at-390.ts).
import { describeAt390 } from './languages-at-390.ts';

describeAt390(['nb', 'nl', 'pl']);
