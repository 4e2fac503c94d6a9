/**
 * `Idempotency-Key` for a POST that makes something upstream, as a middleware the route attaches
 * (`createRoute({ middleware: [idempotency(…)] })`):
 *
 * - **claim**: one key at a time in this process (a keyed lock) and one claim across the processes sharing the
 *   store (`setIfAbsent`), made with the values the handler needs to be the same on every attempt (`seed()`:
 *   our order id, its status token);
 * - **replay**: the same key and body after a success answers the stored response, 200 with
 *   `Idempotent-Replayed: true`; the same key with another body is a 409, and so is a claim still running;
 * - **take over**: a claim older than `staleClaimMs` with no answer (its process died, as far as anyone can
 *   tell), one whose process is known to have stopped (`owners`: the claim names the process that made it) once
 *   the call that process may have made upstream has ended (`callEndsWithinMs`), or one an earlier attempt left
 *   uncertain, is taken by a conditional update, keeping its seed, and the handler is told it is `uncertain` (it
 *   then looks for what the earlier attempt made before making anything);
 * - **reconcile**: a failure that says nothing was made (`madeNothing`) puts the key back as it was; any other
 *   (a timeout, a lost answer) keeps the claim as uncertain and free to take, and runs the handler's
 *   `reconcile` after each of `reconcileAfterMs`, so what that attempt made is recorded even if no retry comes.
 *
 * The key holds for the body as the route validates it (`body`): key order and fields the schema drops do not
 * matter. The record (collection `idempotency`, key `<scope>:<key>`) is `{ state, bodyHash, claimedAt, owner?,
 * uncertain?, response?, ...seed }`.
 */
import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import { createKeyedLock } from '../keyed-lock.ts';
import { type LogLine, logger } from '../logger.ts';
import type { Store } from '../store/store.ts';

export const idempotencyKeySchema = z
  .string()
  .min(8, 'must be 8 to 128 characters')
  .max(128, 'must be 8 to 128 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

/** The claim a handler runs under: the seed, and whether an earlier attempt may already have made the thing. */
export type Claim<Seed> = Seed & {
  uncertain: boolean;
  /**
   * What to do if this attempt ends without knowing whether it made the thing: look for it later and resolve to
   * the answer to keep (as the handler would have answered), or undefined when nothing is there (yet).
   */
  reconcile(find: () => Promise<unknown>): void;
};

export type IdempotencyEnv<Seed> = { Variables: { idempotency: Claim<Seed> } };

/**
 * Which process made a claim, and whether it still runs: a shopper whose order was being made when its process
 * was killed can try again as soon as that is known, rather than after `staleClaimMs` (claim-owners.ts).
 */
export interface ClaimOwners {
  /** This process, written into each claim it makes. */
  self: string;
  /** False only when `owner` is known to have stopped; in doubt (Redis unreachable, say), true. */
  alive(owner: string): Promise<boolean>;
}

export interface IdempotencyOptions<Seed extends Record<string, unknown>> {
  store: Store;
  clock: Clock;
  /**
   * Prefix of the store key, one per route (`orders`); a function of the request where a key holds for one
   * resource of the path only (`refunds:ord_…`: the same key for another order is another request).
   */
  scope: string | ((c: Context) => string);
  /** The route's body schema: what the key is checked against. */
  body: z.ZodType;
  /** The values fixed when a key is first claimed and kept by whoever takes the claim over. */
  seed: () => Seed;
  /** Whether the handler's failure says nothing was made, so the key is put back as it was. */
  madeNothing: (error: Error) => boolean;
  /** Waits before each look for what an uncertain attempt made (attempt 0, 1, …); undefined stops looking. */
  reconcileAfterMs: (attempt: number) => number | undefined;
  /** A claim older than this with no answer is taken to be from a process that died mid-call (default 2 min). */
  staleClaimMs?: number;
  /** Who makes claims here, and who still runs; without it, only `staleClaimMs` says a claim was left behind. */
  owners?: ClaimOwners | undefined;
  /**
   * How long after a claim the upstream call its handler made may still be under way (its timeout): a stopped
   * process's claim is taken over no sooner, so what that call made is there to be found (default: staleClaimMs).
   */
  callEndsWithinMs?: number;
  log?: LogLine;
}

interface IdempotencyRecord {
  state: 'pending' | 'done';
  /** An attempt ended without knowing whether it made the thing: look before making it again. */
  uncertain?: boolean;
  bodyHash: string;
  claimedAt: number;
  /** The process that made the claim (`ClaimOwners.self`), when owners are known. */
  owner?: string;
  response?: unknown;
}

/** A stable JSON form: keys sorted, so `{a,b}` and `{b,a}` hash the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const inProgress = () =>
  new AppError('IDEMPOTENCY_CONFLICT', 'A request with this Idempotency-Key is still in progress.');

export function idempotency<Seed extends Record<string, unknown>>(
  options: IdempotencyOptions<Seed>,
): MiddlewareHandler<IdempotencyEnv<Seed>> {
  const { store, clock, owners } = options;
  const staleClaimMs = options.staleClaimMs ?? 2 * 60 * 1000;
  const callEndsWithinMs = Math.min(options.callEndsWithinMs ?? staleClaimMs, staleClaimMs);
  /** Whether a pending claim may still be answered by the process that made it, or its upstream call still land. */
  const stillRunning = async (claim: IdempotencyRecord): Promise<boolean> => {
    const age = clock.now() - claim.claimedAt;
    if (age >= staleClaimMs) return false;
    if (age < callEndsWithinMs || !owners || claim.owner === undefined || claim.owner === owners.self)
      return true;
    return owners.alive(claim.owner).catch(() => true);
  };
  const log = options.log ?? logger.warn;
  const lock = createKeyedLock();
  type Stored = IdempotencyRecord & Seed;

  /** Records what an uncertain attempt made, if it did and no retry has; errors are only logged. */
  async function reconcile(storeKey: string, find: () => Promise<unknown>, attempt: number): Promise<void> {
    const wait = options.reconcileAfterMs(attempt);
    if (wait === undefined) return;
    await new Promise((resolve) => setTimeout(resolve, wait).unref());
    const settled = await lock
      .run(storeKey, async () => {
        const claim = await store.get<Stored>('idempotency', storeKey);
        if (!claim?.uncertain || claim.state === 'done') return true;
        const response = await find();
        if (response === undefined) return false;
        await store.set<Stored>('idempotency', storeKey, { ...claim, state: 'done', response });
        return true;
      })
      .catch((error: Error) => {
        log(
          `[${storeKey.split(':')[0]}] looking for what an uncertain attempt made failed: ${error.message}`,
        );
        return false;
      });
    if (!settled) await reconcile(storeKey, find, attempt + 1);
  }

  return async (c, next) => {
    // An invalid body is the route validator's to refuse (422), before the key is even looked at.
    const parsed = options.body.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) return next();
    const key = c.req.header('idempotency-key');
    if (key === undefined) throw new AppError('BAD_REQUEST', 'The Idempotency-Key header is required.');
    const checked = idempotencyKeySchema.safeParse(key);
    if (!checked.success) {
      const message = checked.error.issues[0]?.message ?? 'is invalid';
      throw new AppError('VALIDATION_FAILED', `Idempotency-Key: ${message}`, {
        issues: [{ path: 'Idempotency-Key', message }],
      });
    }
    const scope = typeof options.scope === 'string' ? options.scope : options.scope(c);
    const storeKey = `${scope}:${checked.data}`;
    const bodyHash = createHash('sha256').update(canonical(parsed.data)).digest('hex');

    return lock.run(storeKey, async () => {
      const existing = await store.get<Stored>('idempotency', storeKey);
      if (existing) {
        if (existing.bodyHash !== bodyHash) {
          throw new AppError(
            'IDEMPOTENCY_CONFLICT',
            'This Idempotency-Key was used with a different request.',
          );
        }
        if (existing.state === 'done' && existing.response !== undefined) {
          c.header('Idempotent-Replayed', 'true');
          return c.json(existing.response as object, 200);
        }
        if (await stillRunning(existing)) throw inProgress();
      }

      // A stale or uncertain claim is taken over with the same seed: what the earlier attempt may have made
      // upstream carries it, so the handler can look for that before making anything.
      const claim = (
        existing
          ? { ...existing, uncertain: true, claimedAt: clock.now(), owner: owners?.self }
          : { ...options.seed(), state: 'pending', bodyHash, claimedAt: clock.now(), owner: owners?.self }
      ) as Stored;
      if (existing) {
        // Taken over only if no other instance took it since we read it (a conditional update).
        const taken = await store.transaction(async (tx) => {
          const current = await tx.get<Stored>('idempotency', storeKey);
          if (current?.state !== 'pending' || current.claimedAt !== existing.claimedAt) return false;
          await tx.set('idempotency', storeKey, claim);
          return true;
        });
        if (!taken) throw inProgress();
      } else if (!(await store.setIfAbsent('idempotency', storeKey, claim))) {
        throw inProgress();
      }

      let find: (() => Promise<unknown>) | undefined;
      const {
        state: _state,
        bodyHash: _hash,
        claimedAt: _at,
        owner: _owner,
        response: _response,
        ...seed
      } = claim;
      c.set('idempotency', {
        ...(seed as unknown as Seed),
        uncertain: claim.uncertain === true,
        reconcile: (look) => {
          find = look;
        },
      });
      /**
       * The outcome is unknown (a timeout, a lost answer): the thing may exist. The claim keeps its seed for the
       * retry (free to take now), and the handler's `reconcile` looks for it once the upstream has had its time.
       */
      const keepUncertain = async () => {
        await store.set<Stored>('idempotency', storeKey, { ...claim, uncertain: true, claimedAt: 0 });
        if (find) void reconcile(storeKey, find, 0);
      };

      await next();
      const failure = c.error;
      if (!failure) {
        try {
          const response: unknown = await c.res.clone().json();
          await store.set<Stored>('idempotency', storeKey, { ...claim, state: 'done', response });
          return;
        } catch (error) {
          await keepUncertain();
          throw error;
        }
      }
      if (options.madeNothing(failure)) {
        // A definite no: the key is as it was before this request (free, or the earlier attempt's claim).
        if (existing) await store.set('idempotency', storeKey, existing);
        else await store.delete('idempotency', storeKey);
        return;
      }
      await keepUncertain();
    });
  };
}
