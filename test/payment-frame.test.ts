/**
 * Which `sandbox` tokens the payment frame needs (packages/widget/src/frame/frame.ts; docs/payment-page-security.md,
 * "The payment frame"), measured with the sandbox's payment page standing in for the upstream's: framed with the
 * element's tokens it loads, takes the payer's details, submits, and ends on the return page, whose message reaches
 * the shop's page from the payment page's own origin; without any one of `allow-scripts`, `allow-same-origin` or
 * `allow-forms` it does not.
 */
import assert from 'node:assert/strict';
import { demoSuite, engine, test } from './harness.ts';
import { simulatePayment } from './pay-page.ts';

const demo = demoSuite('payment-frame');

/** The element's tokens, as frame.ts sets them. */
const elementTokens = [
  'allow-scripts',
  'allow-same-origin',
  'allow-forms',
  'allow-popups',
  'allow-popups-to-escape-sandbox',
];

/** Whether the whole payment works in a frame sandboxed with `tokens`: the outcome the shop's page hears. */
async function payInFrame(tokens: string[]): Promise<string> {
  const [product] = await demo.products();
  const origin = new URL(demo.url).origin;
  const created = await fetch(`${demo.url}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID(), origin },
    body: JSON.stringify({ product: product.id }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const { link } = (await created.json()) as { link: string };
  const { context, page } = await demo.open('/embed');
  await page.evaluate(
    ({ link, sandbox }) => {
      const heard: string[] = [];
      (window as unknown as { heard: string[] }).heard = heard;
      addEventListener('message', (event) => {
        if ((event.data as { type?: string })?.type === 'crypto-checkout:return')
          heard.push(`${event.origin} ${(event.data as { status: string }).status}`);
      });
      const frame = document.createElement('iframe');
      frame.id = 'probe';
      frame.setAttribute('sandbox', sandbox);
      frame.width = '600';
      frame.height = '700';
      frame.src = link;
      document.body.prepend(frame);
    },
    { link, sandbox: tokens.join(' ') },
  );
  let outcome = 'heard nothing';
  try {
    await simulatePayment(page.frameLocator('#probe'), 'exact');
    await page.waitForFunction(() => (window as unknown as { heard: string[] }).heard.length > 0, undefined, {
      timeout: 30_000,
    });
    outcome = (await page.evaluate(() => (window as unknown as { heard: string[] }).heard)).join(', ');
  } catch (error) {
    outcome = `stopped: ${(error as Error).message.split('\n')[0]}`;
  }
  await context.close();
  return outcome;
}

test("with the element's sandbox tokens the payment page pays and its return page tells the shop", async () => {
  assert.equal(await payInFrame(elementTokens), `${new URL(demo.url).origin} paid`);
});

// Each token's need is measured in one engine (each case waits out the payment that cannot happen: about 30 s
// a case): the tokens are the frame's, not the engine's, and the positive case above runs in all three.
const measuring = engine === 'chromium';
for (const needed of measuring ? ['allow-scripts', 'allow-same-origin', 'allow-forms'] : []) {
  test(`without ${needed} the payment does not reach the shop`, async () => {
    const outcome = await payInFrame(elementTokens.filter((token) => token !== needed));
    assert.notEqual(outcome, `${new URL(demo.url).origin} paid`, `${needed} is not needed after all`);
  });
}
