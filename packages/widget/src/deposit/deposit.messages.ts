/** Deposit's words (the network, the address, its QR code and copy), in English. Other languages: the `deposit` block of internal/lang/*.ts. */
import { messages } from '../internal/messages.ts';

export const depositEn = {
  chain: 'Network',
  address: 'Deposit address',
  memo: 'Memo (required)',
  copy: 'Copy',
  copied: 'Copied',
  qr: 'QR code of the address',
  accepts: 'Accepts {currencies}',
  noChain: 'No network takes deposits here.',
};

export type DepositKey = keyof typeof depositEn;

/** A message of this part, or a shared one, in the locale's language (English until that has loaded). */
export const depositMessages = messages('deposit', depositEn);
