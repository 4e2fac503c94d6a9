/**
 * An npm registry on loopback that serves packed tarballs by name, as the public registry will once they are
 * published: `npm install @crypto-checkout/backend --registry <url>` then resolves our packages by their ranges
 * here, and every other name is sent on (302) to the registry npm is configured with, whose answers npm's cache
 * already holds.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';

export interface LocalRegistry {
  url: string;
  close(): Promise<void>;
}

export async function startLocalRegistry(tarballs: string[], upstream: string): Promise<LocalRegistry> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const files = new Map<string, Buffer>();
  const packuments = new Map<string, unknown>();
  for (const tarball of tarballs) {
    const bytes = readFileSync(tarball);
    const manifest = JSON.parse(
      execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
    );
    const file = basename(tarball);
    files.set(`/-/tarballs/${file}`, bytes);
    packuments.set(manifest.name, {
      name: manifest.name,
      'dist-tags': { latest: manifest.version },
      versions: {
        [manifest.version]: {
          ...manifest,
          _id: `${manifest.name}@${manifest.version}`,
          dist: {
            tarball: `${url}/-/tarballs/${file}`,
            integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
            shasum: createHash('sha1').update(bytes).digest('hex'),
          },
        },
      },
    });
  }
  server.on('request', (request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0] ?? '/');
    const file = files.get(path);
    if (file) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(file);
      return;
    }
    const packument = packuments.get(path.slice(1));
    if (packument) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
      return;
    }
    response.writeHead(302, { location: `${upstream.replace(/\/$/, '')}${request.url}` }).end();
  });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
