/**
 * One process per SQLite DATA_DIR: an exclusive lock the operating system holds for the process and drops when
 * it ends, however it ends (a `kill -9` included), so a stale lock never needs clearing by hand.
 *
 * The lock is SQLite's own (a small database `crypto-checkout.lock` opened in EXCLUSIVE locking mode and written
 * once): POSIX locks, which work across containers sharing a volume where a pid in a file means nothing, and with
 * no window between "is the pid alive" and "take the file over" for two starting processes to both win. The
 * holder's pid goes beside it in `crypto-checkout.pid`, only to name it in the refusal.
 *
 * Taken by the command and by `createCheckout()` on SQLite alike. Within one process the lock is shared: an app
 * that mounts two checkouts on one DATA_DIR holds it once, until the last of them is closed.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

export class DataDirInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: string | undefined,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another process${holder ? ` (${holder})` : ''}: SQLite is one process per ` +
        'DATA_DIR, and two would deliver the same events twice. Stop the other one, give this one a DATA_DIR of ' +
        'its own, or set DATABASE_URL (PostgreSQL) to run several instances.',
    );
    this.name = 'DataDirInUse';
  }
}

export interface DataDirLock {
  release(): void;
}

/** The locks this process holds, by directory, with how many holders share each. */
const held = new Map<string, { holders: number; release(): void }>();

/** Takes DATA_DIR for this process, or throws DataDirInUse naming who holds it. */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const dir = path.resolve(dataDir);
  let lock = held.get(dir);
  if (lock) lock.holders += 1;
  else {
    lock = { holders: 1, ...(await takeDataDir(dir)) };
    held.set(dir, lock);
  }
  const shared = lock;
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      shared.holders -= 1;
      if (shared.holders > 0) return;
      held.delete(dir);
      shared.release();
    },
  };
}

async function takeDataDir(dir: string): Promise<DataDirLock> {
  mkdirSync(dir, { recursive: true });
  const pidFile = path.join(dir, 'crypto-checkout.pid');
  // Loaded here, as the store loads it: a backend on PostgreSQL never needs SQLite's native binary.
  const { default: Sqlite } = await import('libsql');
  const db = new Sqlite(path.join(dir, 'crypto-checkout.lock'));
  try {
    db.exec('PRAGMA busy_timeout = 0');
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    // The first write takes the exclusive lock, and EXCLUSIVE mode keeps it until the connection closes.
    db.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS held (at INTEGER); DELETE FROM held; COMMIT');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    throw new DataDirInUse(dir, readHolder(pidFile));
  }
  const me = `pid ${process.pid} on ${hostname()}`;
  writeFileSync(pidFile, `${me}\n`);
  return {
    release() {
      if (!db.open) return;
      if (readHolder(pidFile) === me) rmSync(pidFile, { force: true });
      db.close();
    },
  };
}

function readHolder(pidFile: string): string | undefined {
  try {
    return readFileSync(pidFile, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
