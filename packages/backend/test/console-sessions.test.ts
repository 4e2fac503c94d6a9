/**
 * Console sessions in the stores a deployment runs on: SQLite, and PostgreSQL shared by two instances (a session
 * begun on one is honoured by the other, and signing out on one ends it on both); a session ends when its time is
 * up (CONSOLE_SESSION_MINUTES), whichever instance is asked, and pruning removes it.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tokenSha256 } from '../src/admin/credentials.ts';
import { createSqlStore } from '../src/store/sql-store.ts';
import type { Store } from '../src/store/store.ts';
import { createDatabase, type Postgres, startPostgres } from './servers.ts';
import { json, type Stack, startStack } from './support.ts';

const token = `cca_${randomBytes(32).toString('hex')}`;
const env = { ADMIN_CREDENTIALS: `owner:write:${tokenSha256(token)}`, CONSOLE_SESSION_MINUTES: '30' };
const clock = { ms: Date.parse('2026-12-07T09:00:00Z') };
const now = () => clock.ms;

async function signIn(stack: Stack) {
  const response = await stack.api('/console/session', { method: 'POST', json: { token } });
  assert.equal(response.status, 201);
  const session = await json<{ csrf: string; csrfHeader: string }>(response);
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { cookie, [session.csrfHeader]: session.csrf };
}

const whoAmI = (stack: Stack, headers: Record<string, string>) =>
  stack.api('/api/admin/credential', { headers }).then((response) => response.status);

let postgres: Postgres | undefined;
before(async () => {
  postgres = await startPostgres();
});
after(() => postgres?.stop());

for (const kind of ['SQLite', 'PostgreSQL'] as const) {
  describe(`console sessions on ${kind}`, () => {
    let dir: string;
    let stores: Store[];
    let stacks: Stack[];
    before(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'cc-console-'));
      const url =
        kind === 'PostgreSQL' && postgres ? await createDatabase(postgres, `console_${Date.now()}`) : '';
      // Two instances over one PostgreSQL database; SQLite is one instance's file.
      const open = () =>
        createSqlStore(url ? { databaseUrl: url, dataDir: dir, now } : { dataDir: dir, now });
      stores = kind === 'PostgreSQL' ? [await open(), await open()] : [await open()];
      stacks = await Promise.all(stores.map((store) => startStack({ env, store, clock: { now } })));
    });
    after(async () => {
      for (const stack of stacks) await stack.close();
      for (const store of stores) await store.close();
      await rm(dir, { recursive: true, force: true });
    });

    test('a session lasts its minutes on every instance, then ends and is pruned', async () => {
      const first = stacks[0] as Stack;
      const last = stacks.at(-1) as Stack;
      const headers = await signIn(first);
      assert.equal(await whoAmI(last, headers), 200);
      clock.ms += 29 * 60_000;
      assert.equal(await whoAmI(last, headers), 200);
      clock.ms += 2 * 60_000;
      assert.equal(await whoAmI(first, headers), 401);
      assert.equal(await whoAmI(last, headers), 401);
      assert.ok((await (stores[0] as Store).prune()) >= 1, 'the ended session is pruned');
    });

    test('signing out on one instance ends the session on all', async () => {
      const first = stacks[0] as Stack;
      const last = stacks.at(-1) as Stack;
      const headers = await signIn(first);
      const out = await last.api('/console/session', {
        method: 'DELETE',
        headers: { cookie: headers['cookie'] ?? '', origin: last.backendUrl },
      });
      assert.equal(out.status, 204);
      assert.equal(await whoAmI(first, headers), 401);
    });
  });
}
