// Every mode and state at 390 px in Spanish, Finnish, French: nothing left in English, nothing cut
// (languages-at-390.ts says what is checked; the languages are split across files to keep each file short).
import { resetSandbox } from '../support.ts';
import { checkLanguageAt390 } from './languages-at-390.ts';

describe('every mode and state at 390 px, in es, fi, fr', () => {
  beforeEach(resetSandbox);

  it('in Spanish (es)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('es');
  });

  it('in Finnish (fi)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('fi');
  });

  it('in French (fr)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('fr');
  });
});
