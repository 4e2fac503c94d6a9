/**
 * For test/browser/pinned-scripts.test.ts (a server command of web-test-runner.config.mjs): a copy of the built
 * script-tag bundle in a folder of its own, served over HTTP on a free port by the backend's own widget routes
 * (packages/backend/src/routes/widget-bundle.ts, which reload a file whose mtime changes), so that a test can
 * change a chunk's bytes on disk under a running server without touching dist/ the other tests load.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AppDeps } from '../../backend/src/deps.ts';
import { widgetBundleFile, widgetBundleRoutes } from '../../backend/src/routes/widget-bundle.ts';

export interface WidgetCopy {
  /** Where it is served: `${origin}/widget/v<version>/crypto-checkout.js`. */
  origin: string;
  dir: string;
  close(): Promise<void>;
}

/**
 * Copies dist's loader, chunks and manifest to a new folder and serves them at `/widget` on 127.0.0.1, and
 * `page` (HTML) at `/storefront.html`: a storefront on an origin of its own, which no backend lists.
 */
export async function serveWidgetCopy(page = ''): Promise<WidgetCopy> {
  const dist = join(widgetBundleFile, '..');
  const dir = mkdtempSync(join(tmpdir(), 'crypto-checkout-widget-'));
  for (const name of readdirSync(dist))
    if (/^crypto-checkout.*\.js$|^manifest\.json$/.test(name))
      copyFileSync(join(dist, name), join(dir, name));
  // The routes read nothing of their deps.
  const app = new Hono()
    .route('/widget', widgetBundleRoutes({} as AppDeps, join(dir, 'crypto-checkout.js')))
    .get('/storefront.html', (c) => c.html(page));
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dir,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(dir, { recursive: true, force: true });
      }),
  };
}

/**
 * Changes the file of `copy` whose name starts with `prefix` (`crypto-checkout-deposit-`) on disk: `edit` gets
 * its text and returns the new one, which must differ. Returns the file's name.
 */
export function tamper(copy: WidgetCopy, prefix: string, edit: (code: string) => string): string {
  const name = readdirSync(copy.dir).find((n) => n.startsWith(prefix) && n.endsWith('.js'));
  if (!name) throw new Error(`no file ${prefix}* in the widget's build`);
  const code = readFileSync(join(copy.dir, name), 'utf8');
  const changed = edit(code);
  if (changed === code) throw new Error(`the change left ${name} as it was`);
  writeFileSync(join(copy.dir, name), changed);
  return name;
}
