/**
 * Who a request is from: the peer, unless the peer is a proxy in TRUSTED_PROXIES, whose X-Forwarded-For is then
 * walked from the right past trusted hops; a made-up header from anyone else is ignored. The setting's values,
 * and the warning a live backend gives once when every request looks alike.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: plain JavaScript shared with scripts/test.mjs (no types).
import { ensurePackagesBuilt } from '../../../scripts/ensure.mjs';
import { ConfigError, loadConfig } from '../src/config.ts';
import { alikeAfter, clientOf, peerAddress } from '../src/middleware/client-address.ts';
import { trustOf } from '../src/trusted-proxies.ts';
import { startCli } from './cli-process.ts';
import { sandboxUpstreamEnv } from './support.ts';

describe('the client behind X-Forwarded-For', () => {
  const haproxy = trustOf(['10.0.0.5']);

  test('nobody trusted (the default): the peer, whatever the header says', () => {
    assert.equal(clientOf('203.0.113.7', '198.51.100.1', trustOf([])), '203.0.113.7');
  });

  test('a header from a peer not trusted is ignored: it cannot pick its own identity', () => {
    assert.equal(clientOf('203.0.113.7', '198.51.100.1', haproxy), '203.0.113.7');
  });

  test('from a trusted proxy, the address it saw: the last entry, not one the client wrote before it', () => {
    assert.equal(clientOf('10.0.0.5', '198.51.100.1', haproxy), '198.51.100.1');
    assert.equal(clientOf('10.0.0.5', '127.0.0.1, 192.0.2.9, 198.51.100.1', haproxy), '198.51.100.1');
  });

  test('a chain of trusted hops is walked from the right to the first one not trusted', () => {
    const cdnAndHaproxy = trustOf(['10.0.0.0/8', '2001:db8::/32']);
    assert.equal(
      clientOf('10.0.0.5', '192.0.2.1, 198.51.100.1, 10.1.2.3, 10.0.0.9', cdnAndHaproxy),
      '198.51.100.1',
    );
    assert.equal(clientOf('10.0.0.5', '2001:db8::1, 2001:db8::2', cdnAndHaproxy), '2001:db8::1');
    // Every hop trusted: the furthest one named.
    assert.equal(clientOf('10.0.0.5', '10.9.9.9, 10.0.0.9', cdnAndHaproxy), '10.9.9.9');
    // A trusted peer with no header is itself the client.
    assert.equal(clientOf('10.0.0.5', undefined, cdnAndHaproxy), '10.0.0.5');
  });

  test('range names: loopback and private (10/8, 172.16/12, 192.168/16, fc00::/7)', () => {
    const names = trustOf(['loopback', 'private']);
    assert.equal(clientOf('127.0.0.1', '203.0.113.7', names), '203.0.113.7');
    assert.equal(clientOf('172.20.1.1', '192.168.1.1, 203.0.113.7', names), '203.0.113.7');
    assert.equal(clientOf('fd00::1', '203.0.113.7', names), '203.0.113.7');
    assert.equal(clientOf('203.0.113.9', '198.51.100.1', names), '203.0.113.9');
  });

  test('the peer as a host hands it in: Node bindings, { clientAddress }, or nothing', () => {
    assert.equal(peerAddress({ incoming: { socket: { remoteAddress: '::ffff:192.0.2.1' } } }), '192.0.2.1');
    assert.equal(peerAddress({ clientAddress: '2001:db8::7' }), '2001:db8::7');
    assert.equal(peerAddress({ clientAddress: 'not an address' }), undefined);
    assert.equal(peerAddress(undefined), undefined);
    assert.equal(clientOf(undefined, '198.51.100.1', trustOf(['loopback'])), 'unknown');
  });

  test('TRUSTED_PROXIES: each entry checked, a bad one named', () => {
    assert.deepEqual(
      loadConfig({ TRUSTED_PROXIES: ' 10.0.0.5, 10.1.0.0/16 ,loopback,private,::1 ' }).trustedProxies,
      ['10.0.0.5', '10.1.0.0/16', 'loopback', 'private', '::1'],
    );
    assert.deepEqual(loadConfig({}).trustedProxies, []);
    assert.throws(
      () => loadConfig({ TRUSTED_PROXIES: '10.0.0.5,haproxy.internal' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        /TRUSTED_PROXIES: "haproxy\.internal" is not an address/.test(error.message),
    );
  });
});

describe('a live backend says once when every request looks alike', () => {
  /** `count` API requests from `from` (each address of the list in turn). */
  const sendFrom = async (url: string, from: string[], count: number) => {
    for (let n = 0; n < count; n += 1)
      await new Promise<void>((resolve, reject) => {
        const request = httpRequest(
          `${url}/api/products`,
          { localAddress: from[n % from.length], agent: false },
          (r) => r.resume().on('end', resolve),
        );
        request.on('error', reject).end();
      });
  };
  // Live mode (the upstream is never called here): the sandbox runs on a developer's machine, where it is normal.
  const live = sandboxUpstreamEnv('http://127.0.0.1:9');
  const warning = (lines: string[]) => lines.filter((line) => line.includes('TRUSTED_PROXIES'));

  test(`${alikeAfter} API requests from one loopback address and no proxy trusted: one warning naming it and the fix`, async () => {
    const backend = await startCli({ ...live, ALLOWED_ORIGINS: 'https://shop.example' });
    try {
      await sendFrom(backend.url, ['127.0.0.5'], alikeAfter * 2);
    } finally {
      // Stopped first: its lines are all out once it has exited.
      await backend.stop();
    }
    const said = warning(backend.lines());
    assert.equal(said.length, 1, said.join('\n'));
    assert.match(said[0] ?? '', /every one of the first 50 API requests came from 127\.0\.0\.5/);
    assert.match(said[0] ?? '', /set TRUSTED_PROXIES to its address/);
  });

  test('requests from two addresses, or with a proxy trusted: no warning', async () => {
    for (const env of [{}, { TRUSTED_PROXIES: '127.0.0.1' }] as Record<string, string>[]) {
      const backend = await startCli({ ...live, ALLOWED_ORIGINS: 'https://shop.example', ...env });
      try {
        await sendFrom(
          backend.url,
          'TRUSTED_PROXIES' in env ? ['127.0.0.1'] : ['127.0.0.6', '127.0.0.7'],
          alikeAfter * 2,
        );
      } finally {
        await backend.stop();
      }
      assert.deepEqual(warning(backend.lines()), [], JSON.stringify(env));
      assert.ok(
        backend.lines().some((line) => line.includes('exiting 0')),
        'its last line is in',
      );
    }
  });
});

describe('crypto-checkout-backend unlock, without Redis', () => {
  const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
  const run = (...args: string[]) => {
    ensurePackagesBuilt();
    return spawnSync(process.execPath, [cli, ...args], {
      env: { PATH: process.env['PATH'] ?? '', PUBLIC_URL: 'https://shop.example/checkout' },
      encoding: 'utf8',
    });
  };

  test('names the route that lifts the count in the serving process, and exits 1', () => {
    const unlock = run('unlock', '203.0.113.7');
    assert.equal(unlock.status, 1, unlock.stderr);
    assert.match(unlock.stderr, /REDIS_URL is not set, so each serving process keeps its own counts/);
    assert.match(
      unlock.stderr,
      /curl -X DELETE -H "Authorization: Bearer \$TOKEN" https:\/\/shop\.example\/checkout\/api\/admin\/lockouts\/203\.0\.113\.7/,
    );
    assert.match(run('unlock', '--all').stderr, /\/api\/admin\/lockouts\/all/);
  });

  test('an address it cannot read, or none, is a usage error (exit 2)', () => {
    const bad = run('unlock', 'shop.example');
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /"shop\.example" is not an IPv4 or IPv6 address/);
    assert.equal(run('unlock').status, 2);
    assert.equal(run('migrate', '--all').status, 2);
  });
});
