// The accessibility conformance report stays what its criteria table says: every test the table cites exists, and
// the committed report is the one `npm run a11y-report` writes from the table (editing one without the other fails).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { criteria } from '../scripts/conformance-criteria.ts';
import { citedTests, missingTests, renderReport, reportPath } from '../scripts/conformance-report.ts';

describe('the accessibility conformance report', () => {
  it('covers each WCAG 2.1 A and AA criterion once, each backed by a test or a stated check (or by definition)', () => {
    const ids = criteria.map((c) => c.id);
    assert.equal(new Set(ids).size, ids.length, 'a criterion twice');
    assert.equal(criteria.filter((c) => c.level === 'A').length, 30);
    assert.equal(criteria.filter((c) => c.level === 'AA').length, 20);
    for (const c of criteria.filter((c) => c.conformance !== 'Not Applicable'))
      assert.ok(c.tests?.length || c.byHand, `${c.id}: neither a test nor a check by hand`);
    assert.ok(citedTests().length > 20);
  });

  it('cites only tests that exist in their files', () => {
    assert.deepEqual(missingTests(), []);
  });

  it('is committed as the command generates it from the current table', () => {
    assert.ok(
      existsSync(reportPath),
      'docs/accessibility/conformance-report.md is missing: run npm run a11y-report',
    );
    assert.equal(
      readFileSync(reportPath, 'utf8'),
      renderReport(),
      'the committed report differs from the table: run npm run a11y-report and commit the report',
    );
  });
});
