/**
 * The files an operator starts from, in deploy/: the systemd unit passes `systemd-analyze verify` and runs the
 * backend's own command; HAProxy accepts its configuration, and run with it as shipped (Debian's haproxy, its
 * addresses moved to free loopback ports through the environment variables it reads) it sends shoppers only to
 * instances whose /readyz answers 200, tries a refused connection again elsewhere, tells the instances each
 * client's address (X-Forwarded-For), so their own per-client limit sees the shopper, logs paths without their
 * query, and keeps /readyz and /metrics off the public side. The rolling restart of real instances behind it:
 * packages/backend/test/rolling-restart.test.ts; their limits and audit behind it:
 * packages/backend/test/behind-haproxy.test.ts; an upstream outage: packages/backend/test/upstream-outage.test.ts.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, get as httpGet, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
// @ts-expect-error: plain JavaScript shared with scripts/test.mjs (no types).
import { ensureDeployTools } from '../scripts/ensure.mjs';
import { freePort, root } from './harness.ts';

const deploy = join(root, 'deploy');
const unitFile = join(deploy, 'crypto-checkout@.service');
const haproxyFile = join(deploy, 'haproxy.cfg');

/** Waits for a condition (never a fixed time): at most `timeoutMs`, then fails saying what never came true. */
async function until(
  condition: () => Promise<boolean>,
  what: () => string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`${what()}: not so after ${timeoutMs} ms`);
}

describe('deploy/', () => {
  let tools: { haproxy: string; systemdAnalyze: string };
  let dir = '';
  before(() => {
    tools = ensureDeployTools();
    dir = mkdtempSync(join(tmpdir(), 'cc-deploy-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('the systemd unit passes systemd-analyze verify, as the template and as instance @8781', () => {
    const instance = join(dir, 'crypto-checkout@8781.service');
    copyFileSync(unitFile, instance);
    for (const file of [unitFile, instance]) {
      const verify = spawnSync(tools.systemdAnalyze, ['verify', file], { cwd: dir, encoding: 'utf8' });
      assert.equal(verify.status, 0, `${file}: ${verify.stdout}${verify.stderr}`);
      // Unknown keys and bad values are only warnings (exit code 0): none is accepted either.
      assert.equal(
        `${verify.stdout}${verify.stderr}`,
        '',
        `systemd-analyze has something to say about ${file}`,
      );
    }
  });

  test('the unit is hardened: systemd-analyze security rates its exposure 3.0 or lower', () => {
    // Offline, the analysis reads the file named as an instance (the template itself has no instance to rate).
    const instance = join(dir, 'crypto-checkout@8781.service');
    copyFileSync(unitFile, instance);
    const security = spawnSync(
      tools.systemdAnalyze,
      ['security', '--offline=true', '--no-pager', 'crypto-checkout@8781.service'],
      { cwd: dir, encoding: 'utf8' },
    );
    const said = `${security.stdout}${security.stderr}`;
    assert.equal(security.status, 0, said);
    const exposure = said.match(/Overall exposure level for crypto-checkout@8781\.service: (\d+\.\d+)/)?.[1];
    assert.ok(exposure, `systemd-analyze security rates the unit:\n${said}`);
    assert.ok(Number(exposure) <= 3, `exposure ${exposure} (3.0 or lower wanted):\n${said}`);
    // What must stay off for Node to run: V8's JIT writes executable memory; the unit binds and dials the network.
    assert.doesNotMatch(
      readFileSync(unitFile, 'utf8'),
      /^(MemoryDenyWriteExecute=(yes|true)|PrivateNetwork=(yes|true))/m,
    );
  });

  test('the unit drains for longer than the shipped HAProxy takes to see an instance stop', () => {
    // HAProxy takes an instance out after `fall` failed checks `inter` apart, each given `timeout check`: the
    // instance must still serve until then, or requests HAProxy sends it in between are refused.
    const haproxy = readFileSync(haproxyFile, 'utf8');
    const seconds = (pattern: RegExp) => {
      const value = haproxy.match(pattern)?.[1];
      assert.ok(value, `haproxy.cfg sets ${pattern}`);
      return Number(value);
    };
    const inter = seconds(/^\s*default-server\b.*\binter (\d+)s\b/m);
    const fall = seconds(/^\s*default-server\b.*\bfall (\d+)\b/m);
    const checkTimeout = seconds(/^\s*timeout check (\d+)s\b/m);
    const drainMs = Number(
      readFileSync(unitFile, 'utf8').match(/^Environment=SHUTDOWN_DRAIN_MS=(\d+)$/m)?.[1],
    );
    assert.ok(
      drainMs > (inter * fall + checkTimeout) * 1000,
      `SHUTDOWN_DRAIN_MS=${drainMs} in the unit, HAProxy needs more than ${inter * fall + checkTimeout} s`,
    );
    // And the operators' "Production" (docs/production.md) says the same number.
    assert.match(
      readFileSync(join(root, 'docs', 'production.md'), 'utf8'),
      new RegExp(`SHUTDOWN_DRAIN_MS=${drainMs}\\b`),
    );
  });

  test("the unit runs the backend package's own command, with its port from the instance name", () => {
    const unit = readFileSync(unitFile, 'utf8');
    const { bin } = JSON.parse(readFileSync(join(root, 'packages', 'backend', 'package.json'), 'utf8'));
    const command = (bin['crypto-checkout-backend'] as string).replace(/^\.\//, '');
    assert.match(
      unit,
      new RegExp(
        `^ExecStart=/usr/bin/node /srv/crypto-checkout/node_modules/@crypto-checkout/backend/${command}$`,
        'm',
      ),
    );
    assert.match(unit, /^Environment=PORT=%i$/m);
    assert.match(unit, /^KillSignal=SIGTERM$/m);
  });

  test('haproxy -c accepts the load balancer configuration, without a warning', () => {
    const check = spawnSync(tools.haproxy, ['-c', '-f', haproxyFile], { cwd: dir, encoding: 'utf8' });
    const said = `${check.stdout}${check.stderr}`;
    assert.equal(check.status, 0, said);
    assert.match(said, /Configuration file is valid/);
    assert.doesNotMatch(said, /WARNING|ALERT/);
  });

  describe('HAProxy run with it, in front of three instances', () => {
    /** A stand-in instance: /readyz answers as `ready` says; anything else names the instance. */
    interface Instance {
      port: number;
      ready: boolean;
      served: number;
      /** The X-Forwarded-For of the last request it served. */
      forwardedFor: string | undefined;
      server: Server;
    }
    const instances: Instance[] = [];
    let haproxy: ChildProcess | undefined;
    let haproxyOutput = '';
    let front = '';
    let stats = '';

    before(async () => {
      for (let index = 0; index < 3; index += 1) {
        const instance: Instance = {
          port: await freePort(),
          ready: index !== 1,
          served: 0,
          forwardedFor: undefined,
          server: createServer(),
        };
        instance.server.on('request', (request, response) => {
          if (request.url === '/readyz') {
            response.writeHead(instance.ready ? 200 : 503).end();
            return;
          }
          instance.served += 1;
          instance.forwardedFor = request.headers['x-forwarded-for']?.toString();
          request.resume();
          response
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ instance: index }));
        });
        await new Promise<void>((resolve) => instance.server.listen(instance.port, '127.0.0.1', resolve));
        instances.push(instance);
      }
      // The file as shipped, its addresses moved to free loopback ports through the variables it reads.
      const frontPort = await freePort();
      front = `http://127.0.0.1:${frontPort}`;
      const statsPort = await freePort();
      stats = `http://127.0.0.1:${statsPort}/;csv`;
      haproxy = spawn(tools.haproxy, ['-db', '-f', haproxyFile], {
        cwd: dir,
        env: {
          ...process.env,
          CHECKOUT_BIND: `127.0.0.1:${frontPort}`,
          CHECKOUT_STATS_BIND: `127.0.0.1:${statsPort}`,
          ...Object.fromEntries(
            instances.map((instance, index) => [
              `CHECKOUT_SERVER_${index + 1}`,
              `127.0.0.1:${instance.port}`,
            ]),
          ),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      haproxy.stdout?.on('data', (chunk: Buffer) => (haproxyOutput += chunk));
      haproxy.stderr?.on('data', (chunk: Buffer) => (haproxyOutput += chunk));
    });
    after(async () => {
      if (haproxy && haproxy.exitCode === null) {
        const exited = new Promise((resolve) => haproxy?.once('exit', resolve));
        haproxy.kill('SIGTERM');
        await exited;
      }
      await Promise.all(instances.map((i) => new Promise((resolve) => i.server.close(resolve))));
    });

    /** Each instance's state as HAProxy's statistics page says (UP, DOWN, …), in order. */
    async function states(): Promise<string[]> {
      const csv = await fetch(stats).then(
        (r) => r.text(),
        () => '',
      );
      const rows = csv.split('\n').map((line) => line.split(','));
      return [1, 2, 3].map(
        (n) =>
          rows.find(([proxy, server]) => proxy === 'crypto_checkout' && server === `checkout-${n}`)?.[17] ??
          '?',
      );
    }
    const inRotation = (...expected: string[]) =>
      until(
        async () => (await states()).join() === expected.join(),
        () => `HAProxy's view of the instances becomes ${expected.join()}\n${haproxyOutput}`,
      );

    /** `count` shopper requests through HAProxy; which instance answered each. */
    async function send(count: number): Promise<number[]> {
      const answered: number[] = [];
      for (let n = 0; n < count; n += 1) {
        const response = await fetch(`${front}/api/orders/o_${n}`);
        assert.equal(response.status, 200, `request ${n}: ${response.status}\n${haproxyOutput}`);
        answered.push(((await response.json()) as { instance: number }).instance);
      }
      return answered;
    }

    test("HAProxy's log line of a request has its path and no query: a status token does not reach the log", async () => {
      await until(
        async () => !(await states()).includes('?'),
        () => `HAProxy started\n${haproxyOutput}`,
      );
      const secret = 'status-token-never-logged-4711';
      // From another shopper's address (127.0.0.2) than the tests below.
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const url = new URL(front);
        httpGet(
          {
            host: url.hostname,
            port: url.port,
            path: `/api/orders/o_logged?token=${secret}&lang=de`,
            localAddress: '127.0.0.2',
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode));
          },
        ).on('error', reject);
      });
      assert.equal(status, 200);
      let line: string | undefined;
      await until(
        async () => {
          line = haproxyOutput.split('\n').find((entry) => entry.includes('/api/orders/o_logged'));
          return line !== undefined;
        },
        () => `a log line for /api/orders/o_logged\n${haproxyOutput.slice(-2000)}`,
      );
      assert.match(
        line ?? '',
        /^127\.0\.0\.2:\d+ .* crypto_checkout\/checkout-\d [\d/]+ 200 .*"GET \/api\/orders\/o_logged HTTP\/1\.1"$/,
      );
      assert.doesNotMatch(haproxyOutput, /never-logged|token=|lang=de/);
    });

    test('only instances whose /readyz answers 200 get requests; one that turns ready joins, one that stops leaves', async () => {
      // HAProxy 2.6 counts a server up until its first check (`init-state` came in 3.1): the first check decides.
      await inRotation('UP', 'DOWN', 'UP');
      const answered = await send(30);
      assert.ok(answered.includes(0) && answered.includes(2), `both ready instances answer: ${answered}`);
      assert.ok(!answered.includes(1), 'the instance whose /readyz answers 503 gets none');

      (instances[1] as Instance).ready = true;
      await inRotation('UP', 'UP', 'UP');
      assert.ok((await send(30)).includes(1), 'the instance that turned ready gets requests');

      (instances[0] as Instance).ready = false;
      await inRotation('DOWN', 'UP', 'UP');
      assert.ok(!(await send(30)).includes(0), 'the instance whose /readyz fails gets none');
    });

    test('a connection refused by an instance not yet marked down is tried again on another: no request fails', async () => {
      const killed = instances[2] as Instance;
      assert.deepEqual(await states(), ['DOWN', 'UP', 'UP']);
      // Gone at once, as with SIGKILL: HAProxy still counts it up until its next check.
      killed.server.closeAllConnections();
      await new Promise((resolve) => killed.server.close(resolve));
      const answered = await send(30);
      assert.ok(!answered.includes(2));
    });

    test("each instance is told the client's address, after any the client sent itself (the backend believes only HAProxy's)", async () => {
      const clientSays = async (localAddress: string, headers: Record<string, string>) => {
        await new Promise<void>((resolve, reject) => {
          const request = httpRequest(
            `${front}/api/orders/o_forwarded`,
            { localAddress, headers },
            (response) => {
              response.resume().on('end', resolve);
            },
          );
          request.on('error', reject).end();
        });
        return instances.map((instance) => instance.forwardedFor);
      };
      for (const instance of instances) instance.forwardedFor = undefined;
      assert.ok((await clientSays('127.0.0.2', {})).includes('127.0.0.2'));
      for (const instance of instances) instance.forwardedFor = undefined;
      // A made-up header is kept, with the address HAProxy saw last: the backend walks it from the right.
      assert.ok(
        (await clientSays('127.0.0.3', { 'x-forwarded-for': '203.0.113.9' })).includes(
          '203.0.113.9, 127.0.0.3',
        ),
      );
    });

    test('every check failing at once (an overload): requests still reach the instances, none is a 503', async () => {
      // The third was closed above; the other two now fail their checks too.
      (instances[0] as Instance).ready = false;
      (instances[1] as Instance).ready = false;
      await inRotation('DOWN', 'DOWN', 'DOWN');
      const answered: number[] = [];
      for (let n = 0; n < 20; n += 1) {
        const response = await fetch(`${front}/api/catalog?country=DE`);
        assert.equal(response.status, 200, `request ${n}: ${response.status}\n${haproxyOutput}`);
        answered.push(((await response.json()) as { instance: number }).instance);
      }
      assert.ok(answered.includes(0) && answered.includes(1), `both running instances answer: ${answered}`);
    });

    test('/readyz and /metrics are not served through the public side, however spelled; the health checks still pass', async () => {
      // One instance ready again: HAProxy's own checks of /readyz reach it and bring it back.
      (instances[0] as Instance).ready = true;
      await until(
        async () => (await states())[0] === 'UP',
        () => `checkout-1 back UP on its /readyz\n${haproxyOutput}`,
      );
      const served = instances.map((instance) => instance.served);
      for (const path of ['/readyz', '/metrics', '/readyz/', '//metrics', '/%72eadyz', '/readyz?verbose=1']) {
        const response = await fetch(`${front}${path}`);
        assert.equal(response.status, 404, path);
        const body = (await response.json()) as { error: { code: string } };
        assert.equal(body.error.code, 'NOT_FOUND', path);
      }
      assert.deepEqual(
        instances.map((instance) => instance.served),
        served,
        'no instance was asked',
      );
      // /healthz (liveness, nothing private in it) still passes through.
      assert.equal((await fetch(`${front}/healthz`)).status, 200);
    });
  });
});
