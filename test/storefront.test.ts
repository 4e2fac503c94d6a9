/** The storefront itself: every page in the common layout with the SANDBOX label, on a desktop and a phone;
 * the product grid from the backend; the merchant's Orders page and payment links through the admin proxy. */
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
    '/orders',
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
        'Orders',
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

test('the Orders page makes a payment link and lists orders, the admin token never reaching the browser', async () => {
  const { context, page } = await demo.open();
  const seen: string[] = [];
  page.on('request', (request) => seen.push(`${request.url()} ${JSON.stringify(request.headers())}`));
  page.on('response', async (response) => {
    if (response.url().includes('/demo-admin/')) seen.push(await response.text().catch(() => ''));
  });
  await page.goto(`${demo.url}/orders`);
  await page.locator('#orders-body[aria-busy="false"]').waitFor({ state: 'attached' });
  await page.getByLabel(/^Name/).fill('Workshop booking, 2 h');
  await page.getByLabel(/^Internal note/).fill('Invoice 2026-041');
  const image = `${demo.url}/api/products/images/mug.svg`;
  await page.getByLabel(/^Image URL/).fill(image);
  await page.getByLabel('Display currency').selectOption('USD');
  await page.getByLabel('Amount').fill('80.00');
  await page.getByRole('button', { name: 'Create link' }).click();
  const link = page.getByLabel('Payment link', { exact: true });
  await link.waitFor();
  await page.waitForFunction(() => (document.querySelector('#link-url') as HTMLInputElement).value !== '');
  const url = await link.inputValue();
  assert.match(url, new RegExp(`^${demo.url}/sandbox/pay/[A-Z0-9]+$`));

  // Copy puts the link on the clipboard, ready to paste into an e-mail.
  await demo.browser.grantClipboard(context, demo.url);
  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await page.getByRole('button', { name: 'Copied', exact: true }).waitFor();
  assert.equal(await demo.browser.clipboardText(page), url);

  // The link opens the payment page with the name, the amount in the display currency and the image.
  const payment = await context.newPage();
  await payment.goto(url);
  await payment.getByText('Workshop booking, 2 h').first().waitFor();
  await payment.getByText('$80.00').first().waitFor();
  assert.equal(await payment.locator(`img[src="${image}"]`).count(), 1, 'the link shows its image');
  assert.equal(await payment.getByText('Invoice 2026-041').count(), 0, 'the internal note is not shown');
  await shot(payment, 'payment-link-page');
  await payment.close();
  const orderId = url.split('/').pop()!;
  const row = page.locator(`tr[data-order-id="${orderId}"]`);
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', /Workshop booking, 2 h/);
  await row.locator('summary').click();
  assert.match((await row.textContent()) ?? '', /Invoice 2026-041/);
  await shot(page, 'orders-with-link', { fullPage: true });

  // The id filter narrows the list to that order.
  await page.getByLabel('Order id').fill(orderId);
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(`**/orders?*searchId=${orderId}*`);
  await page.waitForFunction(() => document.querySelectorAll('#orders-body tr').length === 1);

  const html = await page.content();
  assert.ok(!html.includes('sandbox-admin-token'), 'the admin token is in the page');
  assert.ok(
    !seen.some((entry) => entry.includes('sandbox-admin-token')),
    'the admin token went over the wire to the browser',
  );
  await context.close();
});

test('the Orders page pages through the list and filters by date', async () => {
  // Enough orders for two pages of five (made the way the page makes them, through the demo's proxy).
  for (let i = 1; i <= 6; i += 1) {
    const response = await fetch(`${demo.url}/demo-admin/payment-links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Invoice ${i}`, currency: 'EUR', amount: `${10 + i}.00` }),
    });
    assert.equal(response.status, 201);
  }
  const { context, page } = await demo.open();
  const rows = page.locator('#orders-body tr');
  const pageLabel = page.locator('#orders-page');

  await page.goto(`${demo.url}/orders?limit=5`);
  await page.waitForFunction(() => document.querySelectorAll('#orders-body tr').length === 5);
  assert.match((await pageLabel.textContent()) ?? '', /^Page 1 of [2-9]/);
  assert.ok(await page.getByRole('button', { name: '← Previous' }).isDisabled());
  await page.getByRole('button', { name: 'Next →' }).click();
  await page.waitForURL('**/orders?*page=2*');
  await page.waitForFunction(() => document.querySelector('#orders-page')?.textContent?.startsWith('Page 2'));
  assert.ok((await rows.count()) >= 1);
  await shot(page, 'orders-page-2');

  // Orders made today are inside today's dates and outside tomorrow's.
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel('From', { exact: true }).fill(day(0));
  await page.getByLabel('To', { exact: true }).fill(day(0));
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForFunction(() => document.querySelector('#orders-page')?.textContent?.startsWith('Page 1'));
  await page.waitForFunction(() => document.querySelectorAll('#orders-body tr').length === 5);
  await page.getByLabel('From', { exact: true }).fill(day(1));
  await page.getByLabel('To', { exact: true }).fill(day(2));
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.locator('#orders-empty').waitFor();
  assert.equal(await rows.count(), 0);
  await shot(page, 'orders-empty-dates');
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
