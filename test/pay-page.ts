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
 * Posts the page's form with `button`, from inside the page (`button.click()`), and waits for the page it leads to.
 * Not the pointer: the frame sizes itself to each step of the page (SWAPPED_RESIZE), so a click aimed while that
 * message is on its way can land where the button was a moment before. Nor a key: this page is the upstream's,
 * not the product's, and a key sent into a cross-site frame (a process of its own in Chromium) just as the focus
 * moves to it can be lost on a loaded machine (no payment reached the sandbox). The document is marked first: once
 * a document without the mark is there, the post has reached the sandbox (an underpayment's page still shows
 * the same buttons, so "the button is gone" would not say it).
 */
async function submit(target: Page | FrameLocator, button: Locator): Promise<void> {
  await button.evaluate((element: HTMLButtonElement) => {
    element.ownerDocument.documentElement.dataset['pressed'] = '';
    element.click();
  });
  await target.locator('html[data-pressed]').waitFor({ state: 'detached' });
}

/** Clicks the payment page's simulation button for `kind`, going through the steps before it first. */
export async function simulatePayment(target: Page | FrameLocator, kind: PaymentKind): Promise<void> {
  const simulate = target.getByRole('button', { name: buttonNames[kind], exact: true });
  const name = target.getByLabel('Full name');
  const currency = target.getByRole('group', { name: 'Pay with', exact: true });
  for (let step = 0; step < 4; step += 1) {
    await simulate.or(name).or(currency).first().waitFor();
    if (await simulate.isVisible()) {
      // Once the page has moved on (to its outcome, or the payer back to the merchant), the payment is made.
      await submit(target, simulate);
      return;
    }
    if (await name.isVisible()) {
      // The payer's details, unless the element passed them on.
      await name.fill('Ada Lovelace');
      await target.getByLabel('Email').fill('ada@example.com');
    }
    // The step's Continue: the details above, or the currency to pay with (its default kept).
    await submit(target, target.getByRole('button', { name: 'Continue' }));
  }
  throw new Error(`the payment page never offered "${buttonNames[kind]}"`);
}
