// Every mode and state at 390 px in Hungarian, Indonesian and Italian:
// nothing left in English, nothing cut (languages-at-390.ts).
import { describeAt390 } from './languages-at-390.ts';

describeAt390(['hu', 'id', 'it']);
