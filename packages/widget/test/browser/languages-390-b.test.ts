// Every mode and state at 390 px in Czech, Danish, German: nothing left in English, nothing cut
// (languages-at-390.ts says what is checked; the languages are split across files to keep each file short).
import { resetSandbox } from '../support.ts';
import { checkLanguageAt390 } from './languages-at-390.ts';

describe('every mode and state at 390 px, in cs, da, de', () => {
  beforeEach(resetSandbox);

  it('in Czech (cs)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('cs');
  });

  it('in Danish (da)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('da');
  });

  it('in German (de)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('de');
  });
});
