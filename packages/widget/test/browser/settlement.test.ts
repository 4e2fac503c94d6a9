// What a shopper sees when the money goes wrong, against the real backend on the sandbox, in each display mode:
// an underpayment's exact rest, its way to pay it and the time left, counting down; an overpayment's excess and
// that the merchant returns it.
import { expect, html } from '@open-wc/testing';
import type { CryptoCheckout } from '../../src/index.ts';
import { payOrder, resetSandbox, shadowQuery, waitForEvent, waitUntil } from '../support.ts';
import { captureNavigation, mountReady } from './checkout-helpers.ts';

const PRODUCT = 'ember-mug';

type SandboxOrder = {
  expiresAt: string;
  quote: { toAmount: { amount: string; currency: { symbol: string } } };
  payments: Array<{ receivedAmount: string }>;
};

/** `a - b` of two decimal strings, exactly, as a plain decimal string (`"0.5"`, never `"0.50"`). */
function minus(a: string, b: string): string {
  const digits = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
  const units = (s: string) => {
    const [whole = '0', fraction = ''] = s.split('.');
    return BigInt(whole + fraction.padEnd(digits, '0'));
  };
  const difference = units(a) - units(b);
  const negative = difference < 0n;
  const text = (negative ? -difference : difference).toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = text.slice(text.length - digits).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** What the sandbox says arrived in all, and what is due, of its order. */
function sums(order: SandboxOrder) {
  const received = order.payments.reduce((sum, p) => minus(sum, minus('0', p.receivedAmount)), '0');
  return { due: order.quote.toAmount.amount, received, symbol: order.quote.toAmount.currency.symbol };
}

/** An amount as an English page writes it, with every digit. */
const english = (amount: string) =>
  new Intl.NumberFormat('en', { maximumFractionDigits: 20 }).format(amount as `${number}`);

/** The clock `[part~="time-left"]` shows, in seconds. */
function clockOf(el: CryptoCheckout): number {
  const text = shadowQuery(el, '[part~="time-left"]').textContent ?? '';
  const match = text.match(/Time left to pay: (?:(\d+):)?(\d+):(\d\d)/);
  if (!match) throw new Error(`no clock in "${text.trim()}"`);
  return Number(match[1] ?? 0) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

/** A pay element in `display`, its order made: the element and the order's id. */
async function ordered(display: string) {
  const el = await mountReady(
    html`<crypto-checkout mode="pay" product=${PRODUCT} display=${display} locale="en"></crypto-checkout>`,
  );
  const navigations = captureNavigation(el);
  const order = waitForEvent(el, 'checkout-order');
  shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
  const { detail } = await order;
  return { el, orderId: detail.orderId!, link: detail.url!, navigations };
}

const status = (el: CryptoCheckout) => el.shadowRoot?.querySelector('[part~="status"]')?.textContent ?? '';

describe('the money beside the status', () => {
  beforeEach(() => {
    sessionStorage.clear();
    return resetSandbox();
  });

  for (const display of ['inline', 'modal', 'redirect']) {
    it(`underpaid (${display}): the exact rest, the way to pay it and the time left, counting down`, async () => {
      const { el, orderId, link, navigations } = await ordered(display);
      const { order } = await payOrder(orderId, 'underpaid');
      const paid = sums(order as unknown as SandboxOrder);
      const rest = `${english(minus(paid.due, paid.received))} ${paid.symbol}`;
      await waitUntil(() => status(el).includes(rest), `no rest "${rest}" in "${status(el)}"`);
      expect(status(el)).to.contain(`Partly paid: ${rest} is still due.`);
      // The time left is the order's: its expiry less now, to the second (a second or two gone while it showed).
      const left = Math.ceil((Date.parse((order as unknown as SandboxOrder).expiresAt) - Date.now()) / 1000);
      const shown = clockOf(el);
      expect(shown).to.be.within(left - 5, left + 1);
      await waitUntil(() => clockOf(el) < shown, 'the time left never counted down');
      const time = shadowQuery(el, '[part~="time-left"] time');
      expect(Date.parse(time.getAttribute('datetime')!)).to.equal(
        Date.parse((order as unknown as SandboxOrder).expiresAt),
      );
      if (display === 'redirect') {
        // The payment page is not in this page: a way back to it to pay the rest.
        const button = shadowQuery<HTMLButtonElement>(el, '.actions [part~="button"]');
        expect(button.textContent?.trim()).to.equal('Pay the rest');
        navigations.length = 0;
        button.click();
        await waitUntil(() => navigations.length > 0, 'Pay the rest went nowhere');
        expect(navigations).to.deep.equal([link]);
      } else {
        // The payment page is shown (inline, or in the modal): the rest is paid there.
        expect(shadowQuery<HTMLIFrameElement>(el, 'iframe[part~="frame"]').src).to.equal(link);
      }
      await expect(el).to.be.accessible();

      // A second partial payment: the rest shown is what is still missing after both.
      const { order: again } = await payOrder(orderId, 'underpaid');
      const both = sums(again as unknown as SandboxOrder);
      const smaller = `${english(minus(both.due, both.received))} ${both.symbol}`;
      await waitUntil(() => status(el).includes(smaller), `no rest "${smaller}" in "${status(el)}"`);
    });

    it(`overpaid (${display}): how much more arrived, and that the merchant will return it`, async () => {
      const { el, orderId } = await ordered(display);
      const { order } = await payOrder(orderId, 'overpaid');
      const paid = sums(order as unknown as SandboxOrder);
      const excess = `${english(minus(paid.received, paid.due))} ${paid.symbol}`;
      const said = () => el.shadowRoot?.querySelector('[part~="settlement"]')?.textContent ?? '';
      await waitUntil(
        () => said().includes(excess) && status(el).includes('Paid, more than was due.'),
        `no excess "${excess}" in "${said()}", status "${status(el)}"`,
      );
      expect(said().replace(/\s+/g, ' ')).to.contain(
        `${excess} more than was due arrived. The merchant will return it to you.`,
      );
      expect(el.shadowRoot!.querySelector('[part~="time-left"]')).to.equal(null);
      await expect(el).to.be.accessible();
    });
  }
});
