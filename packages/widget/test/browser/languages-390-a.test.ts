// Every mode and state at 390 px in the pseudo-locale, Arabic and Japanese:
// nothing left in English, nothing cut (languages-at-390.ts).
import { PSEUDO_LOCALE } from '../pseudo-locale.ts';
import { describeAt390 } from './languages-at-390.ts';

describeAt390([PSEUDO_LOCALE, 'ar', 'ja']);
