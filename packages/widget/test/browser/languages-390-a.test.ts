// Every mode and state at 390 px in the pseudo-locale, Arabic, Japanese: nothing left in English, nothing cut
// (languages-at-390.ts says what is checked; the languages are split across files to keep each file short).
import { PSEUDO_LOCALE, pseudoTranslation } from '../pseudo-locale.ts';
import { resetSandbox } from '../support.ts';
import { checkLanguageAt390 } from './languages-at-390.ts';

describe('every mode and state at 390 px, in qps-ploc, ar, ja', () => {
  beforeEach(resetSandbox);

  it("in the pseudo-locale (accented, a third longer, given as the page's own messages)", async function () {
    this.timeout(180_000);
    await checkLanguageAt390(PSEUDO_LOCALE, JSON.stringify({ qps: pseudoTranslation }));
  });

  it('in Arabic (ar)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('ar');
  });

  it('in Japanese (ja)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('ja');
  });
});
