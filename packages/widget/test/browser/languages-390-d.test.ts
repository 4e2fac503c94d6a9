// Every mode and state at 390 px in Hungarian, Indonesian, Italian: nothing left in English, nothing cut
// (languages-at-390.ts says what is checked; the languages are split across files to keep each file short).
import { resetSandbox } from '../support.ts';
import { checkLanguageAt390 } from './languages-at-390.ts';

describe('every mode and state at 390 px, in hu, id, it', () => {
  beforeEach(resetSandbox);

  it('in Hungarian (hu)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('hu');
  });

  it('in Indonesian (id)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('id');
  });

  it('in Italian (it)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('it');
  });
});
