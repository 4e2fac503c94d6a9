/** Buy and sell's words (the ramp's form, quote, limits and the summary after Continue), in English. Other languages: the `ramp` block of internal/lang/*.ts. */
import { messages } from '../internal/messages.ts';

export const rampEn = {
  country: 'Country',
  fiat: 'Currency',
  crypto: 'Crypto',
  paymentMethod: 'Payment method',
  payoutMethod: 'Payout method',
  pay: 'You pay',
  get: 'You get',
  sell: 'You sell',
  rate: 'Rate',
  processing: 'Processing fee',
  network: 'Network fee',
  markup: 'Markup',
  total: 'Total',
  // `age`: `now`, or the quote's age as Intl.RelativeTimeFormat says it in the locale ("5 seconds ago").
  updated: 'Updated {age}',
  now: 'now',
  continue: 'Continue',
  wallet: 'Your wallet address',
  walletMissing: 'Required.',
  min: 'Minimum: {amount}',
  max: 'Maximum: {amount}',
  invalid: 'Enter a valid amount.',
  empty: 'No method for this country and currency.',
  useInstead: 'Use {choice} instead',
  notServed: '{country} is not served.',
  unknownCountry: 'We could not find the country “{country}”.',
  noResults: 'No results',
  enterAmount: 'Enter an amount to see your quote.',
  done: 'Done. Thank you!',
  change: 'Change',
};

export type RampKey = keyof typeof rampEn;

/** A message of this part, or a shared one, in the locale's language (English until that has loaded). */
export const rampMessages = messages('ramp', rampEn);
