/** The shipped Prometheus files (deploy/prometheus/) are what promtool accepts, and each example alert fires. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: plain JavaScript shared with scripts/test.mjs (no types).
import { ensurePrometheus } from '../../../scripts/ensure.mjs';

const dir = fileURLToPath(new URL('../../../deploy/prometheus/', import.meta.url));
const promtool = (...args: string[]) =>
  execFileSync((ensurePrometheus() as { promtool: string }).promtool, args, { cwd: dir, encoding: 'utf8' });

test('promtool check rules accepts alerts.yml', () => {
  assert.match(promtool('check', 'rules', 'alerts.yml'), /SUCCESS: 16 rules found/);
});

test('promtool test rules: every alert of alerts.test.yml fires as written', () => {
  assert.match(promtool('test', 'rules', 'alerts.test.yml'), /SUCCESS/);
});

test('every rule of alerts.yml has a case in alerts.test.yml that fires it', () => {
  const names = (file: string, pattern: RegExp) =>
    new Set([...readFileSync(`${dir}${file}`, 'utf8').matchAll(pattern)].map((match) => match[1]));
  const rules = names('alerts.yml', /- alert: (\w+)/g);
  const tested = names('alerts.test.yml', /alertname: (\w+)\n\s+exp_alerts:\n\s+- exp_labels/g);
  assert.equal(rules.size, 16);
  assert.deepEqual(
    [...rules].filter((rule) => !tested.has(rule)),
    [],
  );
});

test("promtool check config accepts the example prometheus.yml (its token file is the deployment's)", () => {
  assert.match(promtool('check', 'config', '--syntax-only', 'prometheus.yml'), /SUCCESS/);
});
