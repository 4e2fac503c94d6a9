/**
 * The backend's Worker in Miniflare (workerd, offline, on loopback), for the tests and the bench: built by
 * `scripts/build-worker.mjs`, configured from `wrangler.jsonc` (compatibility date and flags, the Durable Object
 * binding, the vars), so what runs here is what the README tells a merchant to deploy.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
// @ts-expect-error the build script is plain JavaScript (no types).
import { buildWorker, bundleWorker, mainModule as mainPath, workerFiles } from '../scripts/build-worker.mjs';
import { freePort, portTaken, startOnFreePort } from './servers.ts';

const mainModule: string = mainPath;

const backend = fileURLToPath(new URL('..', import.meta.url));

interface WranglerConfig {
  compatibility_date: string;
  compatibility_flags: string[];
  durable_objects: { bindings: Array<{ name: string; class_name: string }> };
  vars?: Record<string, string>;
}

/** packages/backend/wrangler.jsonc, comments dropped (JSONC: whole-line `//` comments only, as it is written). */
export function wranglerConfig(): WranglerConfig {
  const text = readFileSync(path.join(backend, 'wrangler.jsonc'), 'utf8');
  return JSON.parse(text.replace(/^\s*\/\/.*$/gm, '')) as WranglerConfig;
}

export interface RunningWorker {
  url: string;
  miniflare: Miniflare;
  stop(): Promise<void>;
}

async function listen(options: ConstructorParameters<typeof Miniflare>[0]): Promise<RunningWorker> {
  return startOnFreePort('Miniflare', async () => {
    const port = await freePort();
    const miniflare = new Miniflare({ ...options, host: '127.0.0.1', port } as never);
    try {
      const url = (await miniflare.ready).href.replace(/\/$/, '');
      return { url, miniflare, stop: () => miniflare.dispose() };
    } catch (error) {
      await miniflare.dispose().catch(() => undefined);
      if (/EADDRINUSE|address already in use/i.test(String((error as Error)?.message ?? error)))
        return portTaken;
      throw error;
    }
  });
}

/** Built once per process: every Worker a test file starts runs the same build. */
let built: Promise<string> | undefined;

/**
 * The backend's Worker with `vars` beside (and over) wrangler.jsonc's. With `persist`, the Durable Object's
 * SQLite is kept in that folder, so another start over it is the same deployment restarted.
 */
export async function startWorker(
  vars: Record<string, string> = {},
  options: { persist?: string } = {},
): Promise<RunningWorker> {
  built ??= buildWorker() as Promise<string>;
  const root = await (built as Promise<string>);
  const files: string[] = await workerFiles(root);
  const main = path.join(root, mainModule);
  const config = wranglerConfig();
  return listen({
    modulesRoot: root,
    modules: [
      { type: 'ESModule', path: main },
      ...files.filter((file) => file !== main).map((file) => ({ type: 'Data', path: file })),
    ],
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
    durableObjects: Object.fromEntries(
      config.durable_objects.bindings.map((binding) => [
        binding.name,
        { className: binding.class_name, useSQLite: true },
      ]),
    ),
    bindings: { ...config.vars, ...vars },
    ...(options.persist ? { durableObjectsPersist: options.persist } : {}),
  });
}

/** A Worker of a test's own (one entry file bundled as the backend's is), with Durable Object classes. */
export async function startTestWorker(
  entry: string,
  durableObjects: Record<string, string>,
  options: { unsafeEvalBinding?: string } = {},
): Promise<RunningWorker> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cc-worker-'));
  const outfile = path.join(dir, mainModule);
  await bundleWorker(entry, outfile);
  const config = wranglerConfig();
  const running = await listen({
    modulesRoot: dir,
    modules: [{ type: 'ESModule', path: outfile }],
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
    durableObjects: Object.fromEntries(
      Object.entries(durableObjects).map(([name, className]) => [name, { className, useSQLite: true }]),
    ),
    ...options,
  });
  return {
    ...running,
    stop: async () => {
      await running.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
