/**
 * The HTTP contract against the backend's Worker in Miniflare (workerd, offline): the Workers build as
 * wrangler.jsonc deploys it, one Durable Object holding the store, the delivery worker and the status streams,
 * on the sandbox served by the same Worker.
 */
import { startWorker } from '../workers.ts';
import { httpContract } from './contract.ts';

httpContract('the Worker in Miniflare, a Durable Object', async (vars) => {
  const worker = await startWorker(vars);
  return { baseUrl: worker.url, sandboxUrl: `${worker.url}/sandbox`, stop: worker.stop };
});
