/**
 * The access log's lines wait up to 50 ms and are written together (logger.ts, `logLater`): each still carries the
 * time it was logged, none is written twice, and flushLogs() sends those waiting at once (as the process's exit
 * does, for a line logged in its last moment).
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, mock, test } from 'node:test';
import { configureLogging, flushLogs, logLater } from '../src/logger.ts';

let lines: Array<Record<string, unknown>>;

/** Lines at `level` and above go to `lines`. */
const collect = (level: string) =>
  configureLogging({
    format: 'json',
    level,
    destination: new Writable({
      write(chunk, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    }),
  });

beforeEach(() => {
  lines = [];
  mock.timers.enable({ apis: ['Date', 'setTimeout'], now: Date.parse('2026-11-26T12:00:00.000Z') });
  collect('info');
});

afterEach(() => {
  mock.timers.reset();
  configureLogging({ format: 'json', level: 'warn' });
});

test('lines logged later are written within 50 ms, each with the time it was logged, in order', () => {
  logLater('GET /a 200 1ms', { route: '/a', status: 200 });
  mock.timers.tick(30);
  logLater('GET /b 404 2ms', { route: '/b', status: 404 });
  assert.deepEqual(lines, [], 'nothing is written before the batch is due');
  mock.timers.tick(20);
  assert.deepEqual(
    lines.map((line) => [line['msg'], line['time'], line['route'], line['status']]),
    [
      ['GET /a 200 1ms', '2026-11-26T12:00:00.000Z', '/a', 200],
      ['GET /b 404 2ms', '2026-11-26T12:00:00.030Z', '/b', 404],
    ],
  );
  mock.timers.tick(100);
  assert.equal(lines.length, 2, 'a line is written once');
});

test('flushLogs() writes the lines still waiting; a level above info writes none', () => {
  logLater('GET /c 200 1ms', { route: '/c' });
  flushLogs();
  assert.deepEqual(
    lines.map((line) => line['msg']),
    ['GET /c 200 1ms'],
  );
  collect('warn');
  logLater('GET /d 200 1ms', { route: '/d' });
  mock.timers.tick(100);
  flushLogs();
  assert.equal(lines.length, 1);
});
