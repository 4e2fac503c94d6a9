/**
 * The standalone sandbox's state on disk: one JSON snapshot (`sandbox-state.json` under the data directory) of
 * the orders, idempotency keys and payment routes, the ramp's sessions and orders, and the webhook destinations.
 * Written whole, atomically (a temporary file, fsync, rename), once per batch of changes, before the answer that
 * made them leaves (`flush` after each request), so a restart finds whatever a client was told exists. JSON and
 * not SQLite: the sandbox is a test double holding a few thousand orders at most, its state is already plain
 * objects, and a file a person can read (and delete to start over) suits it; nothing else needs a driver.
 * Not kept: the clock, settings, fault rules, the delivery log and pending background work (a follow-up status
 * or a webhook retry due when it stopped is not done after a restart).
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { PAY_LEDGER } from './payments/ledger.ts';
import { rampStoreKey } from './ramp/orders.ts';
import type { SandboxState } from './state.ts';

export interface DiskState {
  file: string;
  /** Writes the snapshot now if anything changed since the last write. */
  flush(): void;
}

export function keepOnDisk(state: SandboxState, dataDir: string): DiskState {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'sandbox-state.json');
  if (existsSync(file)) {
    state.restore(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>, [
      PAY_LEDGER,
      rampStoreKey,
    ]);
  } else {
    state.restore({}, [PAY_LEDGER, rampStoreKey]);
  }
  let dirty = false;
  const flush = () => {
    if (!dirty) return;
    dirty = false;
    const temporary = `${file}.${process.pid}.tmp`;
    const fd = openSync(temporary, 'w');
    try {
      writeSync(fd, JSON.stringify(state.snapshot()));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  };
  state.onChange(() => {
    if (dirty) return;
    dirty = true;
    // Changes made outside a request (a follow-up status) are written on the next turn of the loop.
    setImmediate(flush);
  });
  return { file, flush };
}
