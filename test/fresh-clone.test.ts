/**
 * A newcomer's first minutes, as a merchant's CI would run them: a fresh clone of the committed tree, `npm ci`
 * (which refuses a lockfile out of step with package.json), then `npm start` until the demo answers. Nothing
 * may be left behind in the tree: builds, data and logs are ignored or written elsewhere.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { freePort, root } from './harness.ts';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

async function untilHealthy(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    assert.equal(child.exitCode, null, `npm start exited early:\n${output()}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.fail(`npm start never answered on ${url}:\n${output()}`);
}

test('a fresh clone installs with npm ci, starts with npm start, and stays clean', {
  timeout: 600_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crypto-checkout-clone-'));
  try {
    git(dir, 'clone', '--quiet', root, 'repo');
    const repo = join(dir, 'repo');
    execFileSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: repo, stdio: 'pipe' });
    assert.equal(git(repo, 'status', '--porcelain'), '', 'npm ci changed the tree (the lockfile?)');

    const port = await freePort();
    let output = '';
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: repo,
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await untilHealthy(`http://127.0.0.1:${port}`, child, () => output);
      const page = await fetch(`http://127.0.0.1:${port}/`);
      assert.equal(page.status, 200, 'the demo storefront is served');
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    assert.equal(git(repo, 'status', '--porcelain'), '', 'npm start left files in the tree');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
