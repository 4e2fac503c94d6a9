/**
 * The access log's line (logger.ts, `logRequest`) is written without pino in JSON: it must read exactly as the line
 * pino writes for the same fields (keys, their order, the instance, the level's name), carry the time it was logged,
 * survive any characters a path or a client's request id can hold, and follow LOG_LEVEL and LOG_FORMAT as pino's do.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, mock, test } from 'node:test';
import { configureLogging, logger, logRequest, type RequestLine } from '../src/logger.ts';

let written: string[];

const into = (format: 'json' | 'pretty', level = 'info') =>
  configureLogging({
    format,
    level,
    instance: 'shop-1',
    destination: new Writable({
      write(chunk, _encoding, done) {
        written.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    }),
  });

const request: RequestLine = {
  requestId: '3f0c9a5e-1b7d-4c2a-9e61-0d8f2b6a7c11',
  method: 'POST',
  path: '/api/quotes/buy',
  route: '/api/quotes/buy',
  status: 200,
  durationMs: 1.37,
};

beforeEach(() => {
  written = [];
  mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-11-27T12:00:00.123Z') });
});

afterEach(() => {
  mock.timers.reset();
  configureLogging({ format: 'json', level: 'warn' });
});

test('an access line reads as the line pino writes for the same fields, key for key and in the same order', () => {
  into('json');
  logRequest('POST /api/quotes/buy 200 1.37ms', request);
  logger.info('POST /api/quotes/buy 200 1.37ms', { ...request });
  assert.equal(written.length, 2);
  assert.equal(written[0], written[1]);
  assert.deepEqual(JSON.parse(written[0] as string), {
    level: 'info',
    time: '2026-11-27T12:00:00.123Z',
    instance: 'shop-1',
    ...request,
    msg: 'POST /api/quotes/buy 200 1.37ms',
  });
});

test('quotes, backslashes, control characters and non-ASCII in a path or a request id stay one valid line', () => {
  into('json');
  const odd: RequestLine = {
    ...request,
    requestId: 'a"b\\c',
    path: '/api/x"y\\z\n\u0001/é/😀',
    route: 'unmatched',
    status: 404,
  };
  logRequest(`GET ${odd.path} 404 1ms`, odd);
  logger.info(`GET ${odd.path} 404 1ms`, { ...odd });
  assert.equal(written.length, 2, 'one line each: the newline in the path is escaped');
  assert.equal(written[0], written[1]);
  assert.equal((JSON.parse(written[0] as string) as RequestLine).path, odd.path);
});

test("a level above info writes no access line; a terminal gets pino-pretty's readable line", () => {
  into('json', 'warn');
  logRequest('POST /api/quotes/buy 200 1.37ms', request);
  assert.equal(written.length, 0);
  into('pretty');
  logRequest('POST /api/quotes/buy 200 1.37ms', request);
  assert.equal(written.length > 0, true);
  assert.match(written[0] as string, /INFO.*POST \/api\/quotes\/buy 200 1\.37ms/);
  assert.throws(() => JSON.parse(written[0] as string));
});
