/**
 * The lines a request causes, as an operator follows them: each carries the id the client was given (the
 * `X-Request-Id` header and the error envelope's `requestId`), however deep the code that writes it (the upstream
 * client, the admin check); an answer the server could not give is logged at warn (503, 502) or error (500), a
 * client's mistake at info. Real HTTP: the backend and the sandbox as its upstream, each on a port of its own.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { configureLogging, logRequest } from '../src/logger.ts';
import { productsFile } from './order-fixtures.ts';
import { waitFor } from './servers.ts';
import { allowedOrigin, type Stack, startStack, testSecrets } from './support.ts';

type Line = Record<string, unknown>;

describe('lines a request causes', () => {
  const lines: Line[] = [];
  let stack: Stack;
  before(async () => {
    configureLogging({
      format: 'json',
      level: 'debug',
      destination: new Writable({
        write(chunk, _encoding, done) {
          for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
          done();
        },
      }),
    });
    stack = await startStack({ env: { ACCESS_LOG: 'on', PRODUCTS_FILE: productsFile } });
  });
  after(async () => {
    await stack?.close();
    configureLogging({ format: 'json', level: 'warn' });
  });

  /** The access line of the request `id` (written once its answer is sent). */
  const accessLine = async (id: string) => {
    let found: Line | undefined;
    await waitFor(async () => {
      found = lines.find((line) => line['requestId'] === id && line['route'] !== undefined);
      assert.ok(found, `no access line for ${id} yet`);
    }, 'the access line');
    return found as Line;
  };

  test('an order the upstream fails: its failure lines and its access line carry the id the client was given', async () => {
    await stack.control('POST', '/faults', { route: '/pay-api/v1/orders', method: 'POST', status: 500 });
    try {
      const response = await stack.api('/api/orders', {
        method: 'POST',
        headers: { origin: allowedOrigin, 'idempotency-key': 'request-logs-upstream-500' },
        json: { product: 'hoodie' },
      });
      const body = (await response.json()) as { error: { code: string; requestId: string } };
      assert.ok(response.status >= 500, `${response.status} ${JSON.stringify(body)}`);
      const id = response.headers.get('x-request-id');
      assert.ok(id);
      assert.equal(body.error.requestId, id);
      const access = await accessLine(id);
      assert.equal(access['status'], response.status);
      assert.equal(access['level'], response.status === 500 ? 'error' : 'warn', 'a 5xx is not info');
      const upstream = lines.filter((line) => /^upstream payments POST/.test(String(line['msg'])));
      assert.ok(upstream.length > 0, 'the upstream failure is logged');
      for (const line of upstream) assert.equal(line['requestId'], id, JSON.stringify(line));
      // Every line of this request, the failure's first, then the answer's.
      assert.ok(lines.filter((line) => line['requestId'] === id).length >= upstream.length + 1);
    } finally {
      await stack.control('DELETE', '/faults');
    }
  });

  test('a wrong admin token: the warning and the 401 carry the request id; a 4xx is info', async () => {
    const response = await stack.api('/api/admin/orders', {
      headers: { authorization: 'Bearer not-the-admin-token-0123456789' },
    });
    assert.equal(response.status, 401);
    const id = response.headers.get('x-request-id');
    assert.ok(id);
    assert.equal(((await response.json()) as { error: { requestId: string } }).error.requestId, id);
    const access = await accessLine(id);
    assert.equal(access['level'], 'info');
    const warnings = lines.filter((line) =>
      /^\[admin\] a wrong or missing admin credential/.test(String(line['msg'])),
    );
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]?.['requestId'], id);
    assert.equal(warnings[0]?.['level'], 'warn');
    // The right token afterwards: a line of its own id, not the last one's.
    const right = await stack.api('/api/admin/events', {
      headers: { authorization: `Bearer ${testSecrets.adminToken}` },
    });
    assert.equal(right.status, 200);
    const rightId = right.headers.get('x-request-id') as string;
    assert.notEqual(rightId, id);
    assert.equal((await accessLine(rightId))['level'], 'info');
  });

  test('lines written outside any request carry no request id', async () => {
    const before = lines.length;
    stack.deps.lifecycle.drain();
    const response = await stack.api('/readyz');
    assert.equal(response.status, 503);
    await response.body?.cancel();
    // A draining instance's 503 is something handled: a warning, not an error.
    assert.equal((await accessLine(response.headers.get('x-request-id') as string))['level'], 'warn');
    // A 500 (a fault of ours) is an error.
    logRequest('GET /api/x 500 1ms', {
      requestId: 'r-500',
      method: 'GET',
      path: '/api/x',
      route: '/api/x',
      status: 500,
      durationMs: 1,
    });
    assert.equal(lines.find((line) => line['requestId'] === 'r-500')?.['level'], 'error');
    const { logger } = await import('../src/logger.ts');
    logger.warn('outside any request');
    const outside = lines.slice(before).find((line) => line['msg'] === 'outside any request');
    assert.ok(outside);
    assert.equal(outside['requestId'], undefined);
  });
});
