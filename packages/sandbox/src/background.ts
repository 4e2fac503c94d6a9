/**
 * Work the sandbox does later, in real time whatever its clock says: webhook and callback retries, and the ramp
 * orders' follow-up statuses. Real time, so a clock pinned for repeatable quotes never stalls a webhook. Each job
 * is tracked: a reset cancels them all, and `GET /control/pending` shows what is still to happen, so a test can
 * tell "nothing more will come" without waiting to see.
 */
import { type Clock, systemClock } from './clock.ts';

/** A job as `GET /control/pending` lists it. */
export interface BackgroundJob {
  /** What it will do, e.g. `retry ORDER_CREATED to http://…`. */
  what: string;
  /** Real time (epoch milliseconds) it is due at. */
  due: number;
}

interface Job extends BackgroundJob {
  timer: ReturnType<typeof setTimeout>;
}

export class Background {
  readonly #jobs = new Set<Job>();

  constructor(private readonly realTime: Clock = systemClock) {}

  /** Runs `run` after `ms` of real time, unless a reset cancels it first. */
  later(ms: number, what: string, run: () => void): void {
    const job: Job = {
      what,
      due: this.realTime.now() + ms,
      timer: setTimeout(() => {
        this.#jobs.delete(job);
        run();
      }, ms),
    };
    // A pending retry must not keep a process (a test, a CLI) alive on its own.
    job.timer.unref?.();
    this.#jobs.add(job);
  }

  /** The jobs still to run, soonest first. */
  pending(): BackgroundJob[] {
    return [...this.#jobs].map(({ what, due }) => ({ what, due })).sort((a, b) => a.due - b.due);
  }

  cancelAll(): void {
    for (const job of this.#jobs) clearTimeout(job.timer);
    this.#jobs.clear();
  }
}
