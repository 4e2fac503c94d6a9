/** The one message table: every UI string and every error code's human message, in five languages. */
import { type ErrorCode, RETRYABLE } from '../api/client.ts';

/** English, which also names every message. */
const en = {
  loading: 'Loading…',
  retry: 'Try again',
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
  updated: 'Updated {0}',
  continue: 'Continue',
  wallet: 'Your wallet address',
  walletMissing: 'Required.',
  min: 'Minimum: {0}',
  max: 'Maximum: {0}',
  invalid: 'Enter a valid amount.',
  empty: 'No method for this country and currency.',
  payCrypto: 'Pay with crypto',
  pending: 'Waiting for your payment…',
  underpaid: 'Partly paid: send the rest to complete.',
  paid: 'Paid. Thank you!',
  overpaid: 'Paid, more than was due. Thank you!',
  expired: 'This payment expired.',
  failed: 'The payment failed.',
  done: 'Done. Thank you!',
  newTab: 'Not showing? Open it in a new tab',
  close: 'Close',
  change: 'Change',
  checkout: 'Checkout',
  chain: 'Network',
  address: 'Deposit address',
  memo: 'Memo (required)',
  copy: 'Copy',
  copied: 'Copied',
  qr: 'QR code of the address',
  accepts: 'Accepts {0}',
  noChain: 'No network takes deposits here.',
  eGone: 'This checkout is not available.',
  eMethod: 'This method is not available here.',
  eRetry: 'Something went wrong. Try again in a moment.',
  eInput: 'Please check your details.',
  resume: 'Open the payment page',
  startOver: 'Start over',
  useInstead: 'Use {0} instead',
  notServed: '{0} is not served.',
  unknownCountry: 'We could not find the country “{0}”.',
  noResults: 'No results',
  enterAmount: 'Enter an amount to see your quote.',
  eOffline: 'No connection. Check your network.',
};

export type MessageKey = keyof typeof en;

/** Every message's key, in the order of the tables below. */
export const KEYS = Object.keys(en) as MessageKey[];

/** The languages with a table; anything else falls back to English. */
export const LANGUAGES = ['en', 'es', 'fr', 'de', 'pt'];

/** Each language's lines, each loaded the first time a page shows it: an English page carries no other. */
const loaders: Record<string, () => Promise<{ default: string }>> = {
  es: () => import('./lang/es.ts'),
  fr: () => import('./lang/fr.ts'),
  de: () => import('./lang/de.ts'),
  pt: () => import('./lang/pt.ts'),
};

/**
 * Each loaded language's messages in the order of KEYS. Filled as languages load: immutable lines, the same for
 * every element on the page, so one cache serves them all.
 */
export const TABLES: Record<string, readonly string[]> = { en: Object.values(en) };

const language = (locale: string) => locale.slice(0, 2).toLowerCase();

/** Loads the table of `locale`'s language; undefined when there is nothing to load (loaded, English, unknown). */
export function loadLanguage(locale: string): Promise<void> | undefined {
  const lang = language(locale);
  const load = loaders[lang];
  if (TABLES[lang] || !load) return undefined;
  return load().then((m) => {
    TABLES[lang] = m.default.split('\n');
  });
}

/** The message `key` in `locale`'s language (English until that language has loaded), `{0}` replaced by `arg`. */
export function msg(locale: string, key: MessageKey, arg = ''): string {
  const table = TABLES[language(locale)] ?? TABLES.en;
  return (table?.[KEYS.indexOf(key)] ?? en[key]).replace('{0}', arg);
}

/** The message key that explains an error code to a shopper. */
export function errorKey(code: ErrorCode): MessageKey {
  if (/TOKEN_|NOT_FOUND/.test(code)) return 'eGone';
  if (code === 'METHOD_UNAVAILABLE') return 'eMethod';
  if (code === 'NETWORK_ERROR') return 'eOffline';
  return RETRYABLE.test(code) ? 'eRetry' : 'eInput';
}
