import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AppError } from '../src/errors.ts';
import { type Release, UpstreamBudget } from '../src/upstream/budget.ts';

/** A clock and timers the test moves by hand: `advance(ms)` runs every timer that falls due, in order. */
function manualTime() {
  let now = 0;
  let timers: Array<{ at: number; callback: () => void }> = [];
  return {
    now: () => now,
    setTimer: (callback: () => void, ms: number) => {
      const timer = { at: now + ms, callback };
      timers.push(timer);
      return () => {
        timers = timers.filter((entry) => entry !== timer);
      };
    },
    async advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = timers.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers = timers.filter((timer) => timer !== due);
        now = due.at;
        due.callback();
        await flush();
      }
      now = until;
      await flush();
    },
  };
}

/** Lets resolved promises run their callbacks. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Starts an acquire and records when (on the manual clock) it is granted or refused. */
function track(budget: UpstreamBudget, time: { now: () => number }) {
  const outcome: { grantedAt?: number; release?: Release; error?: unknown } = {};
  budget.acquire().then(
    (release) => {
      outcome.grantedAt = time.now();
      outcome.release = release;
    },
    (error: unknown) => {
      outcome.error = error;
    },
  );
  return outcome;
}

const busy = (error: unknown) => {
  assert.ok(error instanceof AppError, String(error));
  assert.equal(error.code, 'UPSTREAM_BUSY');
  return error.extra.retryAfter ?? 0;
};

describe('upstream budget', () => {
  test('a token comes back one window after its call FINISHES, not after it was granted', async () => {
    const time = manualTime();
    const budget = new UpstreamBudget({ perSecond: 2, ...time });
    const first = await budget.acquire();
    const second = await budget.acquire();
    await time.advance(300); // both calls take 300 ms upstream
    first();
    second();
    const waiting = track(budget, time);
    await time.advance(999); // 1,299 ms after the grants: a grant-time budget would have given it at 1,000 ms
    assert.equal(waiting.grantedAt, undefined, 'still within one window of the finish');
    await time.advance(1);
    assert.equal(waiting.grantedAt, 1300, 'granted exactly one window after the release');
    assert.equal(budget.stats().maxInWindow, 2);
    budget.close();
  });

  test('a call in flight holds its token however long it takes; nobody is promised a wait on it', async () => {
    const time = manualTime();
    const budget = new UpstreamBudget({ perSecond: 1, ...time });
    const slow = await budget.acquire();
    await time.advance(5000);
    assert.equal(budget.stats().inFlight, 1);
    assert.equal(budget.stats().inWindow, 1);
    // Its token comes back more than a window from now, beyond the 1 s wait bound: refused at once.
    const refused = track(budget, time);
    await flush();
    assert.ok(busy(refused.error) >= 1);
    slow();
    slow(); // releasing twice changes nothing
    const next = track(budget, time);
    await time.advance(999);
    assert.equal(next.grantedAt, undefined);
    await time.advance(1);
    assert.equal(next.grantedAt, 6000);
    assert.equal(budget.stats().inFlight, 1);
    budget.close();
  });

  test('waiters get finished tokens in the order they come back, one window after each release', async () => {
    const time = manualTime();
    const budget = new UpstreamBudget({ perSecond: 3, ...time });
    const releases = [await budget.acquire(), await budget.acquire(), await budget.acquire()];
    await time.advance(100);
    releases[1]?.(); // finishes at 100
    await time.advance(200);
    releases[0]?.(); // finishes at 300
    const a = track(budget, time);
    const b = track(budget, time);
    const c = track(budget, time); // the third token is still in flight: no promise possible
    await flush();
    assert.equal(busy(c.error), 1);
    await time.advance(2000);
    assert.equal(a.grantedAt, 1100);
    assert.equal(b.grantedAt, 1300);
    assert.equal(budget.stats().waited, 2);
    assert.equal(budget.stats().maxInWindow, 3);
    budget.close();
  });

  test('the queue is bounded in length and in wait; beyond either, UPSTREAM_BUSY with Retry-After', async () => {
    const time = manualTime();
    const budget = new UpstreamBudget({ perSecond: 4, maxQueue: 2, maxWaitMs: 500, ...time });
    for (let i = 0; i < 4; i += 1) (await budget.acquire())();
    // All four finished at 0: their tokens come back at 1,000, 1,000 ms away, over the 500 ms bound.
    const tooLong = track(budget, time);
    await flush();
    assert.equal(busy(tooLong.error), 1);
    await time.advance(600); // now they are 400 ms away: two may wait, the third finds the queue full
    const waiting = [track(budget, time), track(budget, time)];
    const full = track(budget, time);
    await flush();
    assert.equal(busy(full.error), 1);
    await time.advance(400);
    assert.deepEqual(
      waiting.map((entry) => entry.grantedAt),
      [1000, 1000],
    );
    const stats = budget.stats();
    assert.equal(stats.refused, 2);
    assert.equal(stats.waited, 2);
    assert.equal(stats.queued, 0);
    budget.close();
  });

  test('Retry-After says when a token comes back when it is more than a second away', async () => {
    const time = manualTime();
    const budget = new UpstreamBudget({ perSecond: 1, windowMs: 3000, ...time });
    (await budget.acquire())();
    const refused = track(budget, time);
    await flush();
    assert.equal(busy(refused.error), 3);
    budget.close();
  });

  test('an aborted waiter leaves the queue; close() refuses the rest', async () => {
    const time = manualTime();
    const budget = new UpstreamBudget({ perSecond: 2, ...time });
    (await budget.acquire())();
    (await budget.acquire())();
    await time.advance(100);
    const controller = new AbortController();
    const aborted = budget.acquire(controller.signal);
    const closed = budget.acquire();
    controller.abort(new Error('shopper left'));
    await assert.rejects(aborted, /shopper left/);
    assert.equal(budget.stats().queued, 1);
    budget.close();
    await assert.rejects(closed, (error: unknown) => busy(error) >= 1);
  });

  test('a burst waits only for tokens of calls that finished, then one window more', async () => {
    const time = manualTime();
    const budget = new UpstreamBudget({ perSecond: 5, ...time });
    const grants: number[] = [];
    // Each call takes 50 ms upstream (on the manual clock), then gives its token back.
    const call = () =>
      budget.acquire().then((release) => {
        grants.push(time.now());
        time.setTimer(release, 50);
      });
    // Five go at once; the other fifteen would wait on calls in flight (back after > 1 s): refused now.
    const first = Promise.allSettled(Array.from({ length: 20 }, call));
    await flush();
    await time.advance(50);
    assert.equal((await first).filter((result) => result.status === 'rejected').length, 15);
    // Now the five have finished: five may queue for their tokens (one window after each finish), five may not.
    const second = Promise.allSettled(Array.from({ length: 10 }, call));
    await flush();
    assert.equal(grants.length, 5, 'nothing more granted within the window');
    await time.advance(999);
    assert.equal(grants.length, 5, 'still one millisecond short of a window after the finish');
    await time.advance(1);
    await time.advance(50);
    assert.equal((await second).filter((result) => result.status === 'rejected').length, 5);
    assert.deepEqual(grants, [0, 0, 0, 0, 0, 1050, 1050, 1050, 1050, 1050]);
    const stats = budget.stats();
    assert.equal(stats.maxInWindow, 5);
    assert.equal(stats.granted, 10);
    assert.equal(stats.refused, 20);
    budget.close();
  });
});
