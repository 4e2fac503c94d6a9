/**
 * Driving the sandbox's hosted payment page (packages/sandbox/src/payments/page/) the way a payer would: the
 * details and currency steps when it shows them, then its buttons that simulate an on-chain payment (exact,
 * underpaid, overpaid) or expiry.
 */
import type { FrameLocator, Page } from './driver/api.ts';

export type PaymentKind = 'exact' | 'underpaid' | 'overpaid' | 'expire';

const buttonNames: Record<PaymentKind, string> = {
  exact: 'Pay exact amount',
  underpaid: 'Underpay',
  overpaid: 'Overpay',
  expire: 'Expire now',
};

/** Clicks the payment page's simulation button for `kind`, going through the steps before it first. */
export async function simulatePayment(target: Page | FrameLocator, kind: PaymentKind): Promise<void> {
  const simulate = target.getByRole('button', { name: buttonNames[kind], exact: true });
  const name = target.getByLabel('Full name');
  const currency = target.getByRole('group', { name: 'Pay with', exact: true });
  for (let step = 0; step < 4; step += 1) {
    await simulate.or(name).or(currency).first().waitFor();
    if (await simulate.isVisible()) {
      // Keyboard, not the pointer: the frame sizes itself to each step of the page (SWAPPED_RESIZE), so a
      // click aimed while that message is on its way can land where the button was a moment before.
      await simulate.press('Enter');
      return;
    }
    if (await name.isVisible()) {
      // The payer's details, unless the element passed them on.
      await name.fill('Ada Lovelace');
      await target.getByLabel('Email').fill('ada@example.com');
      await target.getByRole('button', { name: 'Continue' }).press('Enter');
      await name.waitFor({ state: 'detached' });
      continue;
    }
    // The currency to pay with: keep the default.
    await target.getByRole('button', { name: 'Continue' }).press('Enter');
    await currency.waitFor({ state: 'detached' });
  }
  throw new Error(`the payment page never offered "${buttonNames[kind]}"`);
}
