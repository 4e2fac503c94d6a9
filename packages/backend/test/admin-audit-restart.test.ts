/**
 * The audit log of admin writes lives in the store: a restart keeps it, on SQLite and on PostgreSQL; each entry
 * names the credential's key id, so two tokens of one name (a rotation) are told apart.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { tokenSha256 } from '../src/admin/credentials.ts';
import type { SqlStore } from '../src/store/sql-store.ts';
import { type RestartableBackend, startRestartable, startUpstream, type Upstream } from './restartable.ts';
import { createDatabase, type Postgres, startPostgres } from './servers.ts';

const ops = `cca_${randomBytes(32).toString('hex')}`;
/** The token replacing `ops`'s during a rotation: the same name, listed twice. */
const opsNext = `cca_${randomBytes(32).toString('hex')}`;
const auditor = `cca_${randomBytes(32).toString('hex')}`;
const env = {
  ADMIN_CREDENTIALS: `ops:write:${tokenSha256(ops)},ops:write:${tokenSha256(opsNext)},auditor:read:${tokenSha256(auditor)}`,
};
const keyIdOf = (token: string) => tokenSha256(token).slice(0, 8);

let upstream: Upstream;
let postgres: Postgres;
before(async () => {
  [upstream, postgres] = await Promise.all([startUpstream(), startPostgres()]);
});
after(async () => {
  await upstream.close();
  await postgres.stop();
});

const databaseOf = (backend: RestartableBackend) => (backend.runtime.deps.store as SqlStore).database;

async function writesSurviveRestart(backend: RestartableBackend, restartEnv: Record<string, string>) {
  const made = await backend.api('/api/admin/payment-links', {
    method: 'POST',
    headers: { authorization: `Bearer ${ops}` },
    json: { name: 'Kept across restarts', currency: 'EUR', amount: '12.00' },
  });
  assert.equal(made.status, 201);
  const { orderId } = (await made.json()) as { orderId: string };
  const madeNext = await backend.api('/api/admin/payment-links', {
    method: 'POST',
    headers: { authorization: `Bearer ${opsNext}` },
    json: { name: 'By the next token', currency: 'EUR', amount: '3.00' },
  });
  assert.equal(madeNext.status, 201);
  const next = (await madeNext.json()) as { orderId: string };
  const refused = await backend.api('/api/admin/payment-links', {
    method: 'POST',
    headers: { authorization: `Bearer ${auditor}` },
    json: { name: 'Not allowed', currency: 'EUR', amount: '1.00' },
  });
  assert.equal(refused.status, 403);

  await backend.restart(restartEnv);
  const log = (await (
    await backend.api('/api/admin/audit', { headers: { authorization: `Bearer ${auditor}` } })
  ).json()) as {
    entries: Array<{
      credential: string;
      keyId: string | null;
      target: string | null;
      status: number;
      action: string;
    }>;
  };
  assert.deepEqual(
    log.entries.map((entry) => [entry.credential, entry.keyId, entry.action, entry.target, entry.status]),
    [
      ['auditor', keyIdOf(auditor), 'POST /api/admin/payment-links', null, 403],
      ['ops', keyIdOf(opsNext), 'POST /api/admin/payment-links', next.orderId, 201],
      ['ops', keyIdOf(ops), 'POST /api/admin/payment-links', orderId, 201],
    ],
  );
}

describe('the audit log survives a restart', () => {
  test('on SQLite (DATA_DIR)', async () => {
    const backend = await startRestartable(upstream, env);
    try {
      assert.match(databaseOf(backend), /^SQLite at /);
      await writesSurviveRestart(backend, env);
    } finally {
      await backend.close();
    }
  });

  test('on PostgreSQL (DATABASE_URL)', async () => {
    const databaseUrl = await createDatabase(postgres, 'audit_restart');
    const pgEnv = { ...env, DATABASE_URL: databaseUrl };
    const backend = await startRestartable(upstream, pgEnv);
    try {
      assert.match(databaseOf(backend), /^PostgreSQL at /);
      await writesSurviveRestart(backend, pgEnv);
    } finally {
      await backend.close();
    }
  });
});
