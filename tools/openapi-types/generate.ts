/**
 * The widget's API types, generated from the backend's OpenAPI document by openapi-typescript: types only, so
 * nothing of them reaches the widget's bundle. `npm run api-types` writes packages/widget/src/api/openapi.gen.ts
 * from the document the backend serves at /api/openapi.json; the backend's contract test fails when the committed
 * file is not what this writes from the running backend's document.
 *
 * openapi-typescript builds its output with TypeScript's compiler API, which TypeScript 7 (the project's) does
 * not have: this workspace has its own TypeScript 5 for it.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

export const generatedFile = fileURLToPath(
  new URL('../../packages/widget/src/api/openapi.gen.ts', import.meta.url),
);

const banner = `/**
 * GENERATED from the backend's OpenAPI document (/api/openapi.json) by openapi-typescript: do not edit.
 * Regenerate with \`npm run api-types\`; the backend's contract test fails while this file is stale.
 * Import the named shapes from ./types.ts.
 */

`;

/** The TypeScript text for `document`. */
export async function apiTypes(document: unknown): Promise<string> {
  const ast = await openapiTS(document as OpenAPI3);
  return `${banner}${astToString(ast)}`;
}

/** The document of a backend built in this process (sandbox mode, in-memory store: nothing is started). */
async function backendDocument(): Promise<unknown> {
  const backend = await import('../../packages/backend/src/index.ts');
  const config = backend.loadConfig({ PUBLIC_URL: 'http://localhost:8787', ACCESS_LOG: 'off' });
  const app = backend.createApp(backend.createDeps(config, { store: backend.createMemoryStore() }));
  const response = await app.request('/api/openapi.json');
  if (!response.ok) throw new Error(`/api/openapi.json answered ${response.status}`);
  return response.json();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeFile(generatedFile, await apiTypes(await backendDocument()));
  console.log(`wrote ${generatedFile}`);
}
