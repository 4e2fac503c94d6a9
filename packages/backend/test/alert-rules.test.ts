/** The shipped Prometheus files (deploy/prometheus/) are what promtool accepts, and each example alert fires. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: plain JavaScript shared with scripts/test.mjs (no types).
import { ensurePrometheus } from '../../../scripts/ensure.mjs';

const dir = fileURLToPath(new URL('../../../deploy/prometheus/', import.meta.url));
const promtool = (...args: string[]) =>
  execFileSync((ensurePrometheus() as { promtool: string }).promtool, args, { cwd: dir, encoding: 'utf8' });

test('promtool check rules accepts alerts.yml', () => {
  assert.match(promtool('check', 'rules', 'alerts.yml'), /SUCCESS: 13 rules found/);
});

test('promtool test rules: every alert of alerts.test.yml fires as written', () => {
  assert.match(promtool('test', 'rules', 'alerts.test.yml'), /SUCCESS/);
});

test("promtool check config accepts the example prometheus.yml (its token file is the deployment's)", () => {
  assert.match(promtool('check', 'config', '--syntax-only', 'prometheus.yml'), /SUCCESS/);
});
