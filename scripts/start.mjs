// `npm start`: installs what is missing, builds the widget, and serves the demo, the backend and the sandbox
// on one port (PORT, default 8787).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureDemoBuilt, ensureDeps, ensurePackagesBuilt, ensureWidgetBuilt, root } from './ensure.mjs';

ensureDeps();
ensurePackagesBuilt();
ensureWidgetBuilt();
ensureDemoBuilt();

const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'demo', 'server.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
