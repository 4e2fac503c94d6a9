// Every mode and state at 390 px in Portuguese, Romanian and Swedish:
// nothing left in English, nothing cut (languages-at-390.ts).
import { describeAt390 } from './languages-at-390.ts';

describeAt390(['pt', 'ro', 'sv']);
