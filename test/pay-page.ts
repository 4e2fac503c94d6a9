/**
 * Driving the sandbox's hosted payment page (packages/sandbox/src/payments/page/) the way a payer would: the
 * details and currency steps when it shows them, then its buttons that simulate an on-chain payment (exact,
 * underpaid, overpaid) or expiry.
 */
import type { FrameLocator, Locator, Page } from './driver/api.ts';

export type PaymentKind = 'exact' | 'underpaid' | 'overpaid' | 'expire';

const buttonNames: Record<PaymentKind, string> = {
  exact: 'Pay exact amount',
  underpaid: 'Underpay',
  overpaid: 'Overpay',
  expire: 'Expire now',
};

/**
 * Presses one of the page's buttons from inside the page (`button.click()`, which posts its form with it). Not
 * the pointer: the frame sizes itself to each step of the page (SWAPPED_RESIZE), so a click aimed while that
 * message is on its way can land where the button was a moment before. Nor a key: this page is the upstream's,
 * not the product's, and a key sent into a cross-site frame (a process of its own in Chromium) just as the focus
 * moves to it can be lost on a loaded machine (no payment reached the sandbox).
 */
function activate(button: Locator): Promise<void> {
  return button.evaluate((element: HTMLButtonElement) => element.click());
}

/** Clicks the payment page's simulation button for `kind`, going through the steps before it first. */
export async function simulatePayment(target: Page | FrameLocator, kind: PaymentKind): Promise<void> {
  const simulate = target.getByRole('button', { name: buttonNames[kind], exact: true });
  const name = target.getByLabel('Full name');
  const currency = target.getByRole('group', { name: 'Pay with', exact: true });
  for (let step = 0; step < 4; step += 1) {
    await simulate.or(name).or(currency).first().waitFor();
    if (await simulate.isVisible()) {
      // The page is marked, then the button posts its form: once the mark is gone, the page has moved on (to its
      // outcome, or the payer back to the merchant), so the press has reached the sandbox.
      await simulate.evaluate((element: HTMLElement) => {
        element.ownerDocument.documentElement.dataset['pressed'] = '';
      });
      await activate(simulate);
      await target.locator('html[data-pressed]').waitFor({ state: 'detached' });
      return;
    }
    if (await name.isVisible()) {
      // The payer's details, unless the element passed them on.
      await name.fill('Ada Lovelace');
      await target.getByLabel('Email').fill('ada@example.com');
      await activate(target.getByRole('button', { name: 'Continue' }));
      await name.waitFor({ state: 'detached' });
      continue;
    }
    // The currency to pay with: keep the default.
    await activate(target.getByRole('button', { name: 'Continue' }));
    await currency.waitFor({ state: 'detached' });
  }
  throw new Error(`the payment page never offered "${buttonNames[kind]}"`);
}
