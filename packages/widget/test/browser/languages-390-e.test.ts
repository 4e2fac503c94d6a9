// Every mode and state at 390 px in Norwegian Bokmål, Dutch, Polish: nothing left in English, nothing cut
// (languages-at-390.ts says what is checked; the languages are split across files to keep each file short).
import { resetSandbox } from '../support.ts';
import { checkLanguageAt390 } from './languages-at-390.ts';

describe('every mode and state at 390 px, in nb, nl, pl', () => {
  beforeEach(resetSandbox);

  it('in Norwegian Bokmål (nb)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('nb');
  });

  it('in Dutch (nl)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('nl');
  });

  it('in Polish (pl)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('pl');
  });
});
