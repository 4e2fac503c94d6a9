import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AppError } from '../src/errors.ts';
import { UpstreamBudget } from '../src/upstream/budget.ts';

describe('upstream budget', () => {
  test('never lets more than the budget through in any one-second window; queues briefly; then refuses', async () => {
    const budget = new UpstreamBudget({ perSecond: 5 });
    const started = Date.now();
    const grants: number[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => budget.acquire().then(() => grants.push(Date.now() - started))),
    );
    const refused = results.filter((result) => result.status === 'rejected');
    assert.equal(grants.length, 10, 'five at once, five more after the window');
    assert.equal(refused.length, 10);
    for (const result of refused) {
      const reason = (result as PromiseRejectedResult).reason;
      assert.ok(reason instanceof AppError);
      assert.equal(reason.code, 'UPSTREAM_BUSY');
      assert.ok((reason.extra.retryAfter ?? 0) >= 1);
    }
    for (const at of grants) {
      assert.ok(grants.filter((other) => other >= at && other < at + 1000).length <= 5);
    }
    assert.ok(
      grants.slice(5).every((at) => at >= 1000),
      'the queued ones waited for the window',
    );
    const stats = budget.stats();
    assert.equal(stats.maxInWindow, 5);
    assert.equal(stats.granted, 10);
    assert.equal(stats.refused, 10);
    budget.close();
  });
});
