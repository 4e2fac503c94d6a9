/**
 * The demo runs under the storefront's strict CSP (storefrontCsp, served by demo/server.ts): the element renders
 * in every mode with nothing inline, no eval and only its own Trusted Types policies, the inline payment frame
 * still grows to its page, and an inline script injected into the page is blocked and reported to the backend,
 * where /metrics counts it. Every other end-to-end suite fails on a violation too (harness.ts, `demoSuite`).
 */
import assert from 'node:assert/strict';
import type { Page as PlaywrightPage } from 'playwright-core';
import { waitFor } from '../packages/backend/test/servers.ts';
import { injectedInline } from './driver/proxy.ts';
import { clickPay, cspViolations, demoSuite, engine, type Page, test } from './harness.ts';

const metricsToken = 'metrics-token-for-the-csp-e2e-test';
const demo = demoSuite('csp', { METRICS: 'on', METRICS_TOKEN: metricsToken }, { cspReports: 'expected' });

/** `checkout_csp_violations_total` as /metrics shows it now: `directive blocked` → count. */
async function reported(): Promise<Record<string, number>> {
  const response = await fetch(`${demo.url}/metrics`, {
    headers: { authorization: `Bearer ${metricsToken}` },
  });
  assert.equal(response.status, 200);
  const found: Record<string, number> = {};
  for (const match of (await response.text()).matchAll(
    /^checkout_csp_violations_total\{directive="([^"]*)",blocked="([^"]*)"\} (\S+)$/gm,
  )) {
    found[`${match[1]} ${match[2]}`] = Number(match[3]);
  }
  return found;
}

const noViolations = async (page: Page, where: string) =>
  assert.deepEqual(await cspViolations(page), [], `CSP violations on ${where}`);

test("the demo's pages are sent with the storefront's policy: nothing inline, no eval, reported to the backend", async () => {
  const [product] = await demo.products();
  const response = await fetch(`${demo.url}/products/${product.id}`);
  const policy = response.headers.get('content-security-policy') ?? '';
  assert.match(policy, /^default-src 'none'; script-src \S+ 'self';/);
  assert.match(policy, /; require-trusted-types-for 'script'; trusted-types lit-html crypto-checkout;/);
  assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval|unsafe-hashes|\*/);
  // An http: backend is named by report-uri alone (storefront-csp.ts says why).
  assert.match(policy, /; report-uri http:\/\/\S+\/api\/csp-reports(;|$)/);
  assert.doesNotMatch(policy, /report-to/);
});

test('every mode renders under the strict CSP with no violation; the inline payment frame grows to its page', async () => {
  const [product] = await demo.products();
  const { context, page } = await demo.open(`/products/${product.id}?display=inline`);
  await clickPay(page);
  await page.locator('crypto-checkout iframe').waitFor();
  const frame = page.frameLocator('crypto-checkout iframe');
  await frame.getByLabel('Full name').waitFor();
  // The page says its height (SWAPPED_RESIZE); the element sets it through CSSOM, which the CSP allows.
  await page.waitForFunction(() => {
    const iframe = document.querySelector('crypto-checkout')?.shadowRoot?.querySelector('iframe');
    const inner = iframe?.contentDocument?.documentElement;
    if (!iframe?.style.height || !inner) return false;
    return Math.abs(iframe.getBoundingClientRect().height - inner.scrollHeight) <= 2;
  });
  await demo.shot(page, 'inline-frame-grown');
  await noViolations(page, 'the inline payment');

  // Trusted Types are enforced (all three engines have them): a policy of another name is refused.
  const trustedTypes = await page.evaluate(() => {
    const tt = (window as { trustedTypes?: { createPolicy(name: string, rules: object): unknown } })
      .trustedTypes;
    if (!tt) return 'absent';
    try {
      tt.createPolicy('not-the-elements', {});
      return 'allowed';
    } catch {
      return 'refused';
    }
  });
  assert.equal(trustedTypes, 'refused', `${engine} let a page create an unlisted policy`);
  // ...and reported, as any violation is (then the journey's pages are checked afresh).
  await waitFor(
    async () => assert.ok('trusted-types trusted-types-policy' in (await reported())),
    'the refused policy in /metrics',
    60_000,
  );

  await context.close();
  const second = await demo.open();
  for (const path of ['/buy', '/sell', '/deposit', `/products/${product.id}?display=modal`]) {
    const { page } = second;
    await page.goto(`${demo.url}${path}`);
    const checkout = page.locator('crypto-checkout');
    if (path === '/deposit') await page.locator('crypto-checkout img.qr').waitFor();
    else if (path.startsWith('/products')) {
      await clickPay(page);
      await page.locator('crypto-checkout dialog[open] iframe').waitFor();
      await page.frameLocator('crypto-checkout iframe').getByLabel('Full name').waitFor();
    } else await checkout.getByRole('button', { name: /continue/i }).waitFor();
    await noViolations(page, path);
  }
  await second.context.close();
});

test('an inline script injected into a demo page does not run, and its report reaches /metrics', async () => {
  const { context, page } = await demo.open();
  if (engine === 'chromium') {
    // Playwright rewrites the page as a markup injection would (Firefox and WebKit: the tests' proxy does).
    await (page as unknown as PlaywrightPage).route('**/buy?e2e-inject=inline', async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace('</body>', `${injectedInline}</body>`);
      await route.fulfill({ response, body });
    });
  }
  const before = await reported();
  await page.goto(`${demo.url}/buy?e2e-inject=inline`);
  await page
    .locator('crypto-checkout')
    .getByRole('button', { name: /continue/i })
    .waitFor();
  assert.equal(
    await page.evaluate(() => document.documentElement.dataset['injected'] ?? 'did not run'),
    'did not run',
  );
  const seen = await cspViolations(page);
  assert.equal(seen.length, 1, `one violation, the injected script's: ${seen.join(', ')}`);
  assert.match(seen[0] ?? '', /^script-src(-elem)? inline .* on \/buy$/);
  await demo.shot(page, 'injected-inline-blocked');

  // The browser reports it (report-uri: the demo's backend is http:): counted by directive, as inline.
  const inlineCount = (counts: Record<string, number>) =>
    Object.entries(counts)
      .filter(([key]) => /^script-src(-elem)? inline$/.test(key))
      .reduce((sum, [, n]) => sum + n, 0);
  await waitFor(
    async () => assert.ok(inlineCount(await reported()) > inlineCount(before)),
    'the report in /metrics',
    60_000,
  );
  const after = await reported();
  assert.deepEqual(
    Object.keys(after).filter((key) => !/^script-src(-elem)? inline$/.test(key)),
    Object.keys(before).filter((key) => !/^script-src(-elem)? inline$/.test(key)),
    'nothing else was reported',
  );
  await context.close();
});
