/**
 * Whether a refund address is one of the network's, with the reason when not: EIP-55 checksums on EVM chains
 * (keccak from @noble/hashes), base58 Solana keys (32 bytes), Tron's base58check with its 0x41 prefix, Bitcoin's
 * and Litecoin's bech32 (witness v0) / bech32m (v1+) and base58check (legacy, script), XRP's own base58check, and
 * TON's friendly (base64, CRC-16) and raw forms; the encodings from @scure/base. Where the network carries a memo
 * (an XRP destination tag, a TON comment) it is checked too; elsewhere a memo is refused rather than lost.
 * Pure: `checkRefundAddress(network, address, memo)` → the address as it is to be kept, or why not.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58, base58xrp, base64, base64urlnopad, bech32, bech32m, createBase58check } from '@scure/base';

export type AddressCheck =
  | { ok: true; address: string; memo: string | null }
  | { ok: false; field: 'address' | 'memo'; reason: string };

/** The networks a refund can be sent on (the upstream's network names, lower case), with how each is named. */
export const refundNetworks = {
  ethereum: 'Ethereum',
  base: 'Base',
  polygon: 'Polygon',
  arbitrum: 'Arbitrum',
  solana: 'Solana',
  tron: 'Tron',
  bitcoin: 'Bitcoin',
  litecoin: 'Litecoin',
  xrp: 'XRP Ledger',
  ton: 'TON',
} as const;
export type RefundNetwork = keyof typeof refundNetworks;

export const isRefundNetwork = (network: string): network is RefundNetwork =>
  Object.hasOwn(refundNetworks, network);

/** The network a payment names (`Base`, `XRP Ledger`, `base`) or its crypto code implies (`USDC_BASE`, `BTC`). */
export function networkNamed(name: string | null | undefined, crypto?: string): RefundNetwork | undefined {
  const wanted = (name ?? '').trim().toLowerCase();
  for (const [key, display] of Object.entries(refundNetworks) as Array<[RefundNetwork, string]>)
    if (wanted && (wanted === key || wanted === display.toLowerCase())) return key;
  const code = (crypto ?? '').toUpperCase();
  const suffix = code.includes('_') ? code.split('_').pop()?.toLowerCase() : undefined;
  if (suffix && isRefundNetwork(suffix)) return suffix;
  return nativeChains[code.split('_')[0] ?? ''];
}

/** The chain of a native coin named alone. */
const nativeChains: Record<string, RefundNetwork> = {
  ETH: 'ethereum',
  BTC: 'bitcoin',
  LTC: 'litecoin',
  SOL: 'solana',
  TRX: 'tron',
  XRP: 'xrp',
  TON: 'ton',
  POL: 'polygon',
  MATIC: 'polygon',
};

/** What a network's memo is called, for the networks that carry one. */
export const memoNames: Partial<Record<RefundNetwork, string>> = {
  xrp: 'destination tag',
  ton: 'comment',
};

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const doubleSha256 = (data: Uint8Array) => sha256(sha256(data));
const base58check = createBase58check(sha256);

/** Decodes with `coder`, or undefined when the text is not of that encoding (or its checksum fails). */
function tryDecode<T>(decode: () => T): T | undefined {
  try {
    return decode();
  } catch {
    return undefined;
  }
}

type Verdict = { address: string } | { reason: string };

function evm(address: string, name: string): Verdict {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address))
    return { reason: `That is not a ${name} address: it is 0x and 40 hexadecimal characters` };
  const body = address.slice(2);
  const hash = hex(keccak_256(new TextEncoder().encode(body.toLowerCase())));
  const checksummed = `0x${[...body].map((ch, i) => (Number.parseInt(hash[i] ?? '0', 16) >= 8 ? ch.toUpperCase() : ch.toLowerCase())).join('')}`;
  // All one case carries no checksum (EIP-55): kept in its checksummed form. Mixed case must match it.
  const oneCase = body === body.toLowerCase() || body === body.toUpperCase();
  if (!oneCase && checksummed !== address)
    return { reason: `That is not a ${name} address: the checksum does not match` };
  return { address: checksummed };
}

function solana(address: string): Verdict {
  const bytes = tryDecode(() => base58.decode(address));
  if (!bytes) return { reason: 'That is not a Solana address: it is not base58' };
  if (bytes.length !== 32) return { reason: 'That is not a Solana address: it must be a 32-byte key' };
  return { address };
}

function tron(address: string): Verdict {
  const bytes = tryDecode(() => base58check.decode(address));
  if (!bytes) return { reason: 'That is not a Tron address: the checksum does not match' };
  if (bytes.length !== 21 || bytes[0] !== 0x41)
    return { reason: 'That is not a Tron address: it must start with T (prefix 0x41)' };
  return { address };
}

/** Bitcoin-like chains: bech32/bech32m with `hrp`, or base58check with one of `versions`. */
function utxo(address: string, name: string, hrp: string, versions: readonly number[]): Verdict {
  if (address.toLowerCase().startsWith(`${hrp}1`)) {
    const lower = address.toLowerCase();
    if (address !== lower && address !== address.toUpperCase())
      return { reason: `That is not a ${name} address: mixed upper and lower case` };
    const v0 = tryDecode(() => bech32.decode(lower as `${string}1${string}`));
    const v1 = v0 ? undefined : tryDecode(() => bech32m.decode(lower as `${string}1${string}`));
    const decoded = v0 ?? v1;
    if (!decoded || decoded.prefix !== hrp)
      return { reason: `That is not a ${name} address: the checksum does not match` };
    const [version, ...rest] = decoded.words;
    const program = tryDecode(() => bech32.fromWords(rest));
    if (version === undefined || !program)
      return { reason: `That is not a ${name} address: the checksum does not match` };
    // BIP-350: witness version 0 is bech32 (a 20- or 32-byte program), 1 to 16 bech32m.
    if ((version === 0) !== Boolean(v0))
      return { reason: `That is not a ${name} address: the checksum does not match` };
    if (version === 0 && program.length !== 20 && program.length !== 32)
      return { reason: `That is not a ${name} address: a version 0 program is 20 or 32 bytes` };
    if (version > 16 || program.length < 2 || program.length > 40)
      return { reason: `That is not a ${name} address: not a witness program` };
    return { address: lower };
  }
  const bytes = tryDecode(() => base58check.decode(address));
  if (!bytes) return { reason: `That is not a ${name} address: the checksum does not match` };
  if (bytes.length !== 21 || !versions.includes(bytes[0] ?? -1))
    return { reason: `That is not a ${name} address: it is an address of another network` };
  return { address };
}

const xrpCheck = {
  decode(text: string) {
    const bytes = base58xrp.decode(text);
    const payload = bytes.slice(0, -4);
    const sum = doubleSha256(payload).slice(0, 4);
    if (hex(sum) !== hex(bytes.slice(-4))) throw new Error('checksum');
    return payload;
  },
};

function xrp(address: string): Verdict {
  const bytes = tryDecode(() => xrpCheck.decode(address));
  if (!bytes) return { reason: 'That is not an XRP Ledger address: the checksum does not match' };
  if (bytes.length !== 21 || bytes[0] !== 0)
    return { reason: 'That is not an XRP Ledger address: it must start with r' };
  return { address };
}

/** CRC-16/XMODEM, the checksum of a TON friendly address (not cryptography: a typing check). */
function crc16(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

function ton(address: string): Verdict {
  if (/^-?[01]:[0-9a-fA-F]{64}$/.test(address)) return { address: address.toLowerCase() };
  if (address.length !== 48)
    return { reason: 'That is not a TON address: it is 48 characters (or workchain:hex)' };
  const bytes =
    tryDecode(() => base64urlnopad.decode(address)) ??
    tryDecode(() => base64.decode(address.replace(/-/g, '+').replace(/_/g, '/')));
  if (bytes?.length !== 36) return { reason: 'That is not a TON address: it is not base64' };
  const expected = crc16(bytes.slice(0, 34));
  if (expected !== (((bytes[34] ?? 0) << 8) | (bytes[35] ?? 0)))
    return { reason: 'That is not a TON address: the checksum does not match' };
  if (((bytes[0] ?? 0) & 0x80) !== 0) return { reason: 'That is a TON testnet address' };
  return { address };
}

function verdictOf(network: RefundNetwork, address: string): Verdict {
  switch (network) {
    case 'ethereum':
    case 'base':
    case 'polygon':
    case 'arbitrum':
      return evm(address, refundNetworks[network]);
    case 'solana':
      return solana(address);
    case 'tron':
      return tron(address);
    case 'bitcoin':
      return utxo(address, 'Bitcoin', 'bc', [0x00, 0x05]);
    case 'litecoin':
      return utxo(address, 'Litecoin', 'ltc', [0x30, 0x32, 0x05]);
    case 'xrp':
      return xrp(address);
    case 'ton':
      return ton(address);
  }
}

function memoVerdict(network: RefundNetwork, memo: string): { memo: string } | { reason: string } {
  if (network === 'xrp') {
    // A destination tag is an unsigned 32-bit integer.
    if (!/^\d{1,10}$/.test(memo) || Number(memo) > 0xffffffff)
      return { reason: 'A destination tag is a whole number from 0 to 4294967295' };
    return { memo: String(Number(memo)) };
  }
  if (network === 'ton') {
    if (new TextEncoder().encode(memo).length > 120) return { reason: 'A TON comment is at most 120 bytes' };
    return { memo };
  }
  return { reason: `${refundNetworks[network]} transfers carry no memo: leave it empty` };
}

export function checkRefundAddress(
  network: RefundNetwork,
  address: string,
  memo?: string | null,
): AddressCheck {
  const trimmed = address.trim();
  if (!trimmed) return { ok: false, field: 'address', reason: 'Give the address to send the refund to' };
  const verdict = verdictOf(network, trimmed);
  if ('reason' in verdict) return { ok: false, field: 'address', reason: verdict.reason };
  const givenMemo = memo?.trim() ?? '';
  if (!givenMemo) return { ok: true, address: verdict.address, memo: null };
  const checked = memoVerdict(network, givenMemo);
  if ('reason' in checked) return { ok: false, field: 'memo', reason: checked.reason };
  return { ok: true, address: verdict.address, memo: checked.memo };
}
