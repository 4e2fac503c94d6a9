/**
 * A real Prometheus (Debian's) for tests: scrapes the given targets every second with the bearer token, loads
 * the shipped alert rules (deploy/prometheus/alerts.yml), keeps its data in a temporary directory, and answers
 * PromQL over its HTTP API. Fails, never skips, when it cannot start.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: plain JavaScript shared with scripts/test.mjs (no types).
import { ensurePrometheus } from '../../../scripts/ensure.mjs';
import { freePort, waitFor } from './servers.ts';

export const alertRules = fileURLToPath(new URL('../../../deploy/prometheus/alerts.yml', import.meta.url));

export interface PrometheusServer {
  url: string;
  /** An instant query's vector: each sample's labels and value. */
  query(promql: string): Promise<Array<{ metric: Record<string, string>; value: number }>>;
  stop(): Promise<void>;
}

export async function startPrometheus(options: {
  targets: string[];
  token: string;
}): Promise<PrometheusServer> {
  const { prometheus } = ensurePrometheus() as { prometheus: string };
  const dir = mkdtempSync(path.join(tmpdir(), 'cc-prometheus-'));
  const tokenFile = path.join(dir, 'token');
  writeFileSync(tokenFile, options.token, { mode: 0o600 });
  // JSON is YAML: the config Prometheus reads, scraping every second (a deployment: every 15 s, prometheus.yml).
  const config = {
    global: { scrape_interval: '1s', evaluation_interval: '1s' },
    rule_files: [alertRules],
    scrape_configs: [
      {
        job_name: 'checkout',
        authorization: { type: 'Bearer', credentials_file: tokenFile },
        static_configs: [{ targets: options.targets }],
      },
    ],
  };
  const configFile = path.join(dir, 'prometheus.yml');
  writeFileSync(configFile, JSON.stringify(config));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(
    prometheus,
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`prometheus exited ${child.exitCode}: ${log}`);
        const response = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(5000) });
        if (!response.ok) throw new Error(`not ready: ${response.status}`);
      },
      'Prometheus',
      60_000,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    async query(promql) {
      const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`, {
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await response.json()) as {
        status: string;
        error?: string;
        data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
      };
      if (body.status !== 'success') throw new Error(`${promql}: ${body.error}`);
      return body.data.result.map((sample) => ({ metric: sample.metric, value: Number(sample.value[1]) }));
    },
    stop,
  };
}
