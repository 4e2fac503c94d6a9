// Every mode and state at 390 px in Portuguese, Romanian, Swedish: nothing left in English, nothing cut
// (languages-at-390.ts says what is checked; the languages are split across files to keep each file short).
import { resetSandbox } from '../support.ts';
import { checkLanguageAt390 } from './languages-at-390.ts';

describe('every mode and state at 390 px, in pt, ro, sv', () => {
  beforeEach(resetSandbox);

  it('in Portuguese (pt)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('pt');
  });

  it('in Romanian (ro)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('ro');
  });

  it('in Swedish (sv)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('sv');
  });
});
