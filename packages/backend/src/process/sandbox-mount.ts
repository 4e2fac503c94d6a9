/**
 * The offline sandbox as the upstream (sandbox mode): the package loaded only then, dynamically, so production code
 * never loads it; mounted in the same app at `/sandbox`.
 */
import type { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { handleError, handleNotFound } from '../middleware/error-handler.ts';

/**
 * No upstream keys, and no sandbox to stand in for the upstream: the package is optional and was left out
 * (`npm install --omit=optional`, or the backend's tarball installed alone).
 */
export class SandboxMissing extends Error {
  constructor(options?: ErrorOptions) {
    super(
      'No upstream keys are set, so the backend would run on the offline sandbox, but @crypto-checkout/sandbox ' +
        'is not installed: install it (npm install @crypto-checkout/sandbox) or set the seven upstream variables ' +
        '(RAMP_* and PAY_*, see --help) to run live.',
      options,
    );
    this.name = 'SandboxMissing';
  }
}

/** The sandbox package, loaded only in sandbox mode; its absence is named (SandboxMissing), never a stack trace. */
export async function loadSandbox(): Promise<typeof import('@crypto-checkout/sandbox')> {
  try {
    return await import('@crypto-checkout/sandbox');
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    // Only the package itself missing; a module missing inside it is a broken install, to be seen as it is.
    if (code === 'ERR_MODULE_NOT_FOUND' && /'@crypto-checkout\/sandbox'/.test(message ?? ''))
      throw new SandboxMissing({ cause: error });
    throw error;
  }
}

/**
 * The backend with the sandbox mounted at `/sandbox` as its upstream (sandbox mode). `fetch`: how the sandbox
 * sends its webhooks (a Worker serves its own URLs in process).
 */
export async function withSandbox(
  backend: Hono<AppEnv>,
  sandboxPackage: typeof import('@crypto-checkout/sandbox'),
  publicUrl: string,
  fetch?: typeof globalThis.fetch,
): Promise<Hono<AppEnv>> {
  const sandbox = sandboxPackage.createSandbox({
    baseUrl: `${publicUrl}/sandbox`,
    mountPath: '/sandbox',
    defaultWebhookUrl: `${publicUrl}/api/webhooks/payments`,
    ...(fetch ? { fetch } : {}),
  });
  // The sandbox is mounted in front so the backend's middleware (CORS, rate limit, body limit) leaves it be.
  const { Hono } = await import('hono');
  const app = new Hono<AppEnv>()
    .get('/sandbox/', (c) => c.redirect('/sandbox', 301))
    .route('/sandbox', sandbox.app)
    .route('/', backend);
  app.onError(handleError);
  app.notFound(handleNotFound);
  return app;
}

/** The one line that says the upstream is the sandbox (the command's banner and a mounted checkout). */
export const sandboxNotice = (publicUrl: string) =>
  `UPSTREAM: the offline SANDBOX (no RAMP_*/PAY_* variables are set); no real money moves. Sandbox: ${publicUrl}/sandbox`;
