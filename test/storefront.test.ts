/** The storefront itself: every page in the common layout with the SANDBOX label, on a desktop and a phone;
 * the product grid from the backend. (Orders and payment links are the merchant console's: test/console.test.ts.) */
import assert from 'node:assert/strict';
import { demoSuite, test } from './harness.ts';

const demo = demoSuite('storefront');
const { shot } = demo;

test('npm start serves the demo, the API, the widget bundle and the sandbox on one port', async () => {
  assert.match(demo.server.output(), /Running on the SANDBOX: no real money, no account needed/);
  assert.match(demo.server.output(), new RegExp(`${demo.url}/api`));
  const health = (await (await fetch(`${demo.url}/healthz`)).json()) as { ok: boolean; upstream: string };
  assert.deepEqual(health, { ok: true, upstream: 'sandbox', upstreamDrift: 0, quoteDrift: 0 });
  for (const path of ['/', '/api/products', '/widget/crypto-checkout.js', '/sandbox']) {
    const response = await fetch(`${demo.url}${path}`);
    assert.equal(response.status, 200, `${path} answers ${response.status}`);
  }
});

test('every page has the layout, the nav and the SANDBOX badge, on a desktop and on a phone', async () => {
  const [product] = await demo.products();
  const pages = [
    '/',
    `/products/${product.id}`,
    '/buy',
    '/sell',
    '/deposit',
    '/theming',
    '/embed',
    '/embed/script-tag',
    '/embed/npm',
    '/embed/custom-amount',
    '/embed/blocked-frame',
  ];
  for (const mobile of [false, true]) {
    const { context, page } = await demo.open(undefined, { mobile });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
    for (const path of pages) {
      await page.goto(`${demo.url}${path}`);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.waitFor();
      assert.equal(await page.locator('.badge-sandbox').textContent(), 'SANDBOX');
      assert.ok(
        !((await page.locator('main').textContent()) ?? '').includes('{{'),
        `${path}: a placeholder left unfilled`,
      );
      for (const label of [
        'Shop',
        'Buy crypto',
        'Sell crypto',
        'Deposit',
        'Merchant console',
        'Theming',
        'Embed examples',
      ]) {
        assert.equal(
          await nav.getByRole('link', { name: label, exact: true }).count(),
          1,
          `${path}: nav ${label}`,
        );
      }
      if ((await page.locator('crypto-checkout').count()) > 0) {
        await page
          .waitForFunction(
            () => (sessionStorage.getItem('e2e-events') ?? '').includes('checkout-ready'),
            null,
            {
              timeout: 5000,
            },
          )
          .catch(() => undefined);
      }
      // A page's event log shows checkout-ready, also when its script ran after the element had shown its form:
      // it reads the element's readyState then, as the README tells merchants to (demo/client/lib/event-log.ts).
      if (
        (await page.locator('#event-log').count()) > 0 &&
        (await page.locator('crypto-checkout').count()) > 0
      )
        await page.locator('#event-log li[data-event="checkout-ready"]').first().waitFor({ timeout: 15_000 });
      await shot(page, `page${path === '/' ? '-shop' : path.replace(/\//g, '-')}${mobile ? '-phone' : ''}`);
      // Nothing may overflow sideways on a phone.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `${path} overflows by ${overflow}px at ${mobile ? 'phone' : 'desktop'} width`);
    }
    await page.goto(`${demo.url}/`);
    await page.locator('a.product-card').first().waitFor();
    await shot(page, mobile ? 'shop-phone' : 'shop-desktop', { fullPage: true });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('the product grid lists the backend catalog and links to each product page', async () => {
  const products = await demo.products();
  const { context, page } = await demo.open('/');
  await page.locator('a.product-card').first().waitFor();
  assert.equal(await page.locator('a.product-card').count(), products.length);
  const [first] = products;
  await page.getByRole('link', { name: new RegExp(first.name) }).click();
  await page.waitForURL(`**/products/${first.id}`);
  await page.getByRole('heading', { name: first.name, level: 1 }).waitFor();
  await shot(page, 'product-page');
  await context.close();
});

test('the theming page changes the element live: accent, radius, font, dark mode and locale', async () => {
  const { context, page } = await demo.open('/theming');
  const checkout = page.locator('crypto-checkout');
  await checkout.getByRole('button', { name: 'Continue' }).waitFor();
  await shot(page, 'theming-default');

  await page.getByLabel('Accent').fill('#d9480f');
  await page.getByLabel(/^Radius/).fill('2');
  await page.getByLabel('Font').selectOption({ label: 'Serif (Georgia)' });
  await page.getByLabel('Theme').selectOption('dark');
  await page.getByLabel('Language').selectOption('es');

  const style = await checkout.evaluate((el) => {
    const css = getComputedStyle(el);
    return {
      accent: css.getPropertyValue('--checkout-accent').trim(),
      radius: css.getPropertyValue('--checkout-radius').trim(),
      // WebKit gives the family names back in double quotes: the same value.
      font: css.getPropertyValue('--checkout-font-family').trim().replaceAll('"', "'"),
      theme: el.getAttribute('theme'),
      locale: el.getAttribute('locale'),
    };
  });
  assert.deepEqual(style, {
    accent: '#d9480f',
    radius: '2px',
    font: "Georgia, 'Times New Roman', serif",
    theme: 'dark',
    locale: 'es',
  });
  // The element re-renders in Spanish and takes the accent on its main button.
  const button = checkout.getByRole('button', { name: 'Continuar' });
  await button.waitFor();
  const background = await button.evaluate((el) => getComputedStyle(el).backgroundColor);
  assert.equal(background, 'rgb(217, 72, 15)');
  // The font reaches the element's text, and dark mode turns its text light.
  assert.match(await button.evaluate((el) => getComputedStyle(el).fontFamily), /^Georgia/);
  const text = await checkout
    .locator('[part~="base"]')
    .evaluate((el) => getComputedStyle(el).color.match(/\d+/g)?.map(Number) ?? []);
  assert.ok(Math.min(...text.slice(0, 3)) > 200, `light text in dark mode, got rgb(${text})`);
  assert.match((await page.locator('#theme-code').textContent()) ?? '', /--checkout-accent: #d9480f;/);
  await shot(page, 'theming-dark-es');
  await context.close();
});
