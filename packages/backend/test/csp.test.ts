/**
 * The storefront's Content-Security-Policy (`storefrontCsp`, `crypto-checkout-backend csp`) and the report endpoint
 * its violations are sent to (`POST /api/csp-reports`): logged without query strings, counted in /metrics by
 * directive and blocked origin, bounded in size and in label values. The policy's behaviour in the three browsers is
 * test/csp.test.ts's.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { storefrontCsp } from '../src/csp/storefront-csp.ts';
import { maxCspBlockedOrigins } from '../src/metrics/security-series.ts';
import { startCli } from './cli-process.ts';
import { liveEnv } from './config-env.ts';
import { createOrder, productsFile } from './order-fixtures.ts';
import { waitFor } from './servers.ts';
import { allowedOrigin, type Stack, startStack } from './support.ts';

const token = 'metrics-token-for-csp-tests-0123';
const auth = { authorization: `Bearer ${token}` };

/** The directives of a policy header, each with its sources. */
const directivesOf = (policy: string) =>
  Object.fromEntries(
    policy.split(';').map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name as string, sources];
    }),
  );

/** The documented sample: a live shop at https://shop.example with the checkout under /checkout. */
export const sampleEnv = {
  ...liveEnv,
  PUBLIC_URL: 'https://shop.example/checkout',
  ALLOWED_ORIGINS: 'https://shop.example',
  RAMP_API_URL: 'https://widget.swapped.com',
  RAMP_WIDGET_URL: 'https://widget.swapped.com',
  PAY_API_URL: 'https://pay-api.swapped.com',
  PRODUCTS_FILE: 'none',
};
const samplePayPage = 'https://pay.example';

/** A `report-uri` body (`application/csp-report`) of one report with `fields`. */
const legacyReport = (fields: Record<string, unknown>) => JSON.stringify({ 'csp-report': fields });

describe('storefrontCsp', () => {
  test('sandbox: everything the element uses is on the backend, nothing inline, eval or foreign', () => {
    const config = loadConfig({ PORT: '8787', PRODUCTS_FILE: 'none' });
    const { directives, policy, headers } = storefrontCsp(config);
    const backend = 'http://localhost:8787';
    assert.deepEqual(directivesOf(policy), directives);
    assert.deepEqual(directives['default-src'], ["'none'"]);
    assert.deepEqual(directives['script-src'], [backend]);
    assert.deepEqual(directives['style-src'], ["'none'"]);
    assert.deepEqual(directives['connect-src'], [backend]);
    assert.deepEqual(directives['frame-src'], [backend]);
    assert.deepEqual(directives['img-src'], [backend, 'data:']);
    assert.deepEqual(directives['require-trusted-types-for'], ["'script'"]);
    assert.deepEqual(directives['trusted-types'], ['lit-html', 'crypto-checkout']);
    assert.deepEqual(directives['report-uri'], [`${backend}/api/csp-reports`]);
    // The Reporting API sends to https: only, and Chromium given report-to ignores report-uri: http has none.
    assert.equal(directives['report-to'], undefined);
    assert.equal(headers['Reporting-Endpoints'], undefined);
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval|\*/);
  });

  test('live: the ramp host, the payment page, remote product images; the page adds its own sources', () => {
    const config = loadConfig({
      ...sampleEnv,
      PRODUCTS_FILE: fileURLToPath(new URL('./fixtures/products.json', import.meta.url)),
    });
    const images = (
      JSON.parse(readFileSync(config.productsFile as string, 'utf8')) as {
        products: Array<{ image?: string }>;
      }
    ).products
      .map((product) => product.image ?? '')
      .filter((image) => /^https?:/.test(image))
      .map((image) => new URL(image).origin);
    const { directives } = storefrontCsp(config, {
      payPageOrigins: [samplePayPage],
      extra: { 'style-src': ["'self'"], 'form-action': ["'self'"] },
    });
    assert.deepEqual(directives['frame-src'], [
      'https://widget.swapped.com',
      samplePayPage,
      'https://shop.example',
    ]);
    assert.deepEqual(directives['img-src'], [
      'https://shop.example',
      'https://widget.swapped.com',
      ...new Set(images),
      'data:',
    ]);
    assert.deepEqual(directives['style-src'], ["'self'"], "'none' gives way to the page's own source");
    assert.deepEqual(directives['form-action'], ["'self'"]);
    assert.deepEqual(directives['report-uri'], ['https://shop.example/checkout/api/csp-reports']);
    assert.deepEqual(directives['report-to'], ['csp']);
  });

  test('docs/payment-page-security.md shows the headers the sample configuration gives, as they are', () => {
    const doc = readFileSync(new URL('../../../docs/payment-page-security.md', import.meta.url), 'utf8');
    const { headers } = storefrontCsp(loadConfig(sampleEnv), { payPageOrigins: [samplePayPage] });
    const expected = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n');
    assert.ok(
      doc.includes(`\`\`\`http\n${expected}\n\`\`\``),
      `the doc's header block differs from what storefrontCsp gives now:\n${expected}`,
    );
  });

  test('crypto-checkout-backend csp prints both headers; a --pay-page-origin with a path is refused', () => {
    const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
    const env = { PATH: process.env['PATH'] ?? '', ...sampleEnv };
    const printed = execFileSync(
      process.execPath,
      ['--import', 'tsx', cli, 'csp', '--pay-page-origin', samplePayPage],
      { env, encoding: 'utf8' },
    );
    const { headers } = storefrontCsp(loadConfig(sampleEnv), { payPageOrigins: [samplePayPage] });
    assert.ok(headers['Reporting-Endpoints']);
    assert.equal(
      printed,
      `Content-Security-Policy: ${headers['Content-Security-Policy']}\nReporting-Endpoints: ${headers['Reporting-Endpoints']}\n`,
    );
    assert.throws(
      () =>
        execFileSync(
          process.execPath,
          ['--import', 'tsx', cli, 'csp', '--pay-page-origin', 'https://pay.example/x'],
          {
            env,
            encoding: 'utf8',
            stdio: 'pipe',
          },
        ),
      (error: { status: number; stderr: string }) =>
        error.status === 1 && /is not an origin/.test(error.stderr),
    );
  });
});

describe('POST /api/csp-reports', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { METRICS: 'on', METRICS_TOKEN: token } });
  });
  after(() => stack.close());

  const post = (contentType: string, body: string) =>
    stack.api('/api/csp-reports', {
      method: 'POST',
      headers: { 'content-type': contentType, origin: allowedOrigin },
      body,
    });
  const counted = async () => {
    const text = await (await stack.api('/metrics', { headers: auth })).text();
    const found: Record<string, number> = {};
    for (const match of text.matchAll(
      /^checkout_csp_violations_total\{directive="([^"]*)",blocked="([^"]*)"\} (\S+)$/gm,
    )) {
      found[`${match[1]} ${match[2]}`] = Number(match[3]);
    }
    return found;
  };

  test('report-uri and report-to bodies are each counted by directive and blocked origin, 204', async () => {
    const legacy = legacyReport({
      'document-uri': 'https://shop.example/products/mug?token=secret-in-url',
      'violated-directive': 'script-src-elem',
      'effective-directive': 'script-src-elem',
      'original-policy': "default-src 'none'",
      'blocked-uri': 'inline',
      'line-number': 12,
      disposition: 'enforce',
    });
    assert.equal((await post('application/csp-report', legacy)).status, 204);
    const reporting = JSON.stringify([
      {
        type: 'csp-violation',
        age: 10,
        url: 'https://shop.example/buy',
        user_agent: 'test',
        body: {
          documentURL: 'https://shop.example/buy',
          effectiveDirective: 'img-src',
          blockedURL: 'https://tracker.example/pixel.gif?user=someone',
          sourceFile: 'https://shop.example/assets/shop.js?v=1',
          lineNumber: 3,
          disposition: 'enforce',
        },
      },
      { type: 'deprecation', age: 1, url: 'https://shop.example/', body: { id: 'x' } },
    ]);
    assert.equal((await post('application/reports+json', reporting)).status, 204);
    const counts = await counted();
    assert.equal(counts['script-src-elem inline'], 1);
    assert.equal(counts['img-src https://tracker.example'], 1, 'the origin only, no path or query');
    assert.equal(Object.keys(counts).length, 2, 'the deprecation report is not a CSP one');
  });

  test("a report is taken whatever its Origin (WebKit sends none of the shop's): a page it does not know is news too", async () => {
    const body = legacyReport({
      'document-uri': 'https://elsewhere.example/',
      'effective-directive': 'frame-src',
      'blocked-uri': 'https://evil.example/x',
    });
    for (const origin of ['null', 'https://elsewhere.example']) {
      const response = await stack.api('/api/csp-reports', {
        method: 'POST',
        headers: { 'content-type': 'application/csp-report', origin },
        body,
      });
      assert.equal(response.status, 204, origin);
    }
    assert.equal((await counted())['frame-src https://evil.example'], 2);
  });

  test('what is not a report is 400; a body over 16 kB is 413', async () => {
    assert.equal((await post('application/csp-report', 'not json')).status, 400);
    assert.equal((await post('text/plain', '{"csp-report":{}}')).status, 400);
    assert.equal((await post('application/reports+json', '{"type":"csp-violation"}')).status, 400);
    const big = legacyReport({ 'blocked-uri': 'inline', pad: 'x'.repeat(17 * 1024) });
    const response = await post('application/csp-report', big);
    assert.equal(response.status, 413);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'PAYLOAD_TOO_LARGE');
  });

  test(`blocked origins are counted one by one up to ${maxCspBlockedOrigins}, then as "other"`, async () => {
    for (let i = 0; i < maxCspBlockedOrigins + 5; i++) {
      const body = legacyReport({
        'document-uri': 'https://shop.example/',
        'effective-directive': 'connect-src',
        'blocked-uri': `https://host-${i}.example/x`,
      });
      assert.equal((await post('application/csp-report', body)).status, 204);
    }
    const counts = await counted();
    const origins = Object.keys(counts).filter((key) => /^connect-src https:/.test(key));
    // Two origins (tracker.example, evil.example) were seen by the tests before.
    assert.equal(origins.length, maxCspBlockedOrigins - 2);
    assert.equal(counts['connect-src other'], 7);
  });
});

describe("the backend's own pages: a nonce-based policy of their own", () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { PRODUCTS_FILE: productsFile } });
  });
  after(() => stack.close());

  /** The page's policy, checked for what a strict one must not allow, and its nonce. */
  const strictPolicy = (response: Response) => {
    const policy = response.headers.get('content-security-policy') ?? '';
    const directives = directivesOf(policy);
    assert.deepEqual(directives['default-src'], ["'none'"]);
    assert.deepEqual(directives['base-uri'], ["'none'"]);
    assert.deepEqual(directives['form-action'], ["'none'"]);
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval|\*/);
    const nonce = /^'nonce-([A-Za-z0-9+/=]{16,})'$/.exec(directives['style-src']?.join(' ') ?? '')?.[1];
    assert.ok(nonce, `style-src is one nonce: ${policy}`);
    return { directives, nonce };
  };

  test('the API reference: its one <style> by a nonce new on each request, no script, never framed', async () => {
    const first = await stack.api('/api/docs');
    const { directives, nonce } = strictPolicy(first);
    assert.equal(directives['script-src'], undefined, 'no script at all (default-src)');
    assert.deepEqual(directives['frame-ancestors'], ["'none'"]);
    const html = await first.text();
    assert.equal(html.match(/<style[^>]*>/g)?.join(), `<style nonce="${nonce}">`);
    assert.doesNotMatch(html, /<script/);
    assert.notEqual(strictPolicy(await stack.api('/api/docs')).nonce, nonce);
  });

  test('the return page: style and script by the nonce; framed by the shop only, at top level by nobody', async () => {
    const created = await createOrder(stack);
    const framed = await stack.api(`/api/orders/${created.orderId}/return`, {
      headers: { 'sec-fetch-dest': 'iframe' },
    });
    const { directives, nonce } = strictPolicy(framed);
    assert.deepEqual(directives['script-src'], [`'nonce-${nonce}'`]);
    assert.deepEqual(directives['frame-ancestors'], [allowedOrigin]);
    const html = await framed.text();
    assert.ok(html.includes(`<style nonce="${nonce}">`) && html.includes(`<script nonce="${nonce}">`));
    assert.equal((html.match(/<script/g) ?? []).length, 1);
    const top = await stack.api(`/api/orders/${created.orderId}/return`, {
      headers: { 'sec-fetch-dest': 'document' },
    });
    assert.deepEqual(strictPolicy(top).directives['frame-ancestors'], ["'none'"]);
    assert.match(await top.text(), /close this window/);
  });
});

test('each report is one log line of the running backend, with no query string or token from its URLs', async () => {
  const cli = await startCli();
  try {
    const response = await fetch(`${cli.url}/api/csp-reports`, {
      method: 'POST',
      headers: { 'content-type': 'application/csp-report' },
      body: legacyReport({
        'document-uri': `${cli.url}/thank-you?orderId=ord_1&token=st_secret_token`,
        'effective-directive': 'script-src-elem',
        'blocked-uri': 'https://cdn.example/x.js?key=abc',
        'source-file': `${cli.url}/assets/shop.js?session=s3cr3t`,
        'line-number': 7,
      }),
    });
    assert.equal(response.status, 204);
    const cspLines = () => cli.lines().filter((line) => line.includes('CSP violation'));
    await waitFor(
      async () => {
        if (!cspLines().length) throw new Error('no CSP line in the log yet');
      },
      'the CSP line in the log',
      60_000,
    );
    const lines = cspLines();
    assert.equal(lines.length, 1);
    const line = JSON.parse(lines[0] as string) as { level: number | string; csp: Record<string, unknown> };
    assert.deepEqual(line.csp, {
      directive: 'script-src-elem',
      blocked: 'https://cdn.example',
      document: `${cli.url}/thank-you`,
      source: `${cli.url}/assets/shop.js`,
      line: 7,
    });
    assert.doesNotMatch(lines[0] as string, /secret|s3cr3t|key=|token=/);
  } finally {
    await cli.stop();
  }
});
