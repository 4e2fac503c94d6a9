// Every mode and state at 390 px in Thai, Turkish, Vietnamese: nothing left in English, nothing cut
// (languages-at-390.ts says what is checked; the languages are split across files to keep each file short).
import { resetSandbox } from '../support.ts';
import { checkLanguageAt390 } from './languages-at-390.ts';

describe('every mode and state at 390 px, in th, tr, vi', () => {
  beforeEach(resetSandbox);

  it('in Thai (th)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('th');
  });

  it('in Turkish (tr)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('tr');
  });

  it('in Vietnamese (vi)', async function () {
    this.timeout(180_000);
    await checkLanguageAt390('vi');
  });
});
