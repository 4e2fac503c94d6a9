/**
 * Refund addresses per network (refunds/addresses.ts), with published vectors: EIP-55's own examples, BIP-173's
 * and BIP-350's, well-known Bitcoin, Tron, Solana, XRP and TON addresses; each refused one says why.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkRefundAddress, networkNamed, type RefundNetwork } from '../src/refunds/addresses.ts';

const accepted: Array<[RefundNetwork, string, string?]> = [
  ['base', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
  ['ethereum', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359'],
  ['polygon', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB'],
  ['arbitrum', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb'],
  ['bitcoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
  ['bitcoin', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4'],
  ['bitcoin', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'],
  ['bitcoin', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
  ['bitcoin', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
  ['litecoin', 'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9'],
  ['tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
  ['solana', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
  ['xrp', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', '12345'],
  ['ton', 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N', 'order 42'],
  ['ton', '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8'],
];

test('addresses of each network are accepted, kept in their canonical form', () => {
  for (const [network, address, memo] of accepted) {
    const checked = checkRefundAddress(network, address, memo);
    assert.equal(checked.ok, true, `${network} ${address}: ${JSON.stringify(checked)}`);
  }
  // All lower case carries no EIP-55 checksum: kept checksummed; bech32 kept in lower case.
  assert.deepEqual(checkRefundAddress('base', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'), {
    ok: true,
    address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    memo: null,
  });
  const upper = checkRefundAddress('bitcoin', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4');
  assert.ok(upper.ok && upper.address === 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
});

test('a wrong address is refused with the reason', () => {
  const refused: Array<[RefundNetwork, string, RegExp]> = [
    [
      'base',
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
      /^That is not a Base address: the checksum does not match$/,
    ],
    ['ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA', /Ethereum address: it is 0x and 40 hexadecimal/],
    ['bitcoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', /Bitcoin address: the checksum does not match/],
    ['bitcoin', 'bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', /mixed upper and lower case/],
    ['bitcoin', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', /Bitcoin address: it is an address of another network/],
    [
      'litecoin',
      '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
      /Litecoin address: it is an address of another network/,
    ],
    ['tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', /Tron address: the checksum does not match/],
    ['tron', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', /Tron address: it must start with T/],
    ['solana', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt', /Solana address: it must be a 32-byte key/],
    ['solana', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', /Solana address: it is not base58/],
    ['xrp', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTi', /XRP Ledger address: the checksum does not match/],
    ['ton', 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2M', /TON address: the checksum does not match/],
  ];
  for (const [network, address, reason] of refused) {
    const checked = checkRefundAddress(network, address);
    assert.equal(checked.ok, false, `${network} ${address} was accepted`);
    if (!checked.ok) {
      assert.equal(checked.field, 'address');
      assert.match(checked.reason, reason);
    }
  }
  assert.deepEqual(checkRefundAddress('base', '   '), {
    ok: false,
    field: 'address',
    reason: 'Give the address to send the refund to',
  });
});

test('the memo: a destination tag on XRP, a comment on TON, none elsewhere', () => {
  const xrp = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
  assert.deepEqual(checkRefundAddress('xrp', xrp, 'abc'), {
    ok: false,
    field: 'memo',
    reason: 'A destination tag is a whole number from 0 to 4294967295',
  });
  assert.equal(checkRefundAddress('xrp', xrp, '4294967296').ok, false);
  assert.deepEqual(checkRefundAddress('xrp', xrp, '007'), { ok: true, address: xrp, memo: '7' });
  assert.equal(checkRefundAddress('ton', accepted[13]![1], 'x'.repeat(121)).ok, false);
  assert.deepEqual(checkRefundAddress('solana', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', '1'), {
    ok: false,
    field: 'memo',
    reason: 'Solana transfers carry no memo: leave it empty',
  });
});

test('the network of a payment: its chain name or its crypto code', () => {
  assert.equal(networkNamed('Base', 'USDC'), 'base');
  assert.equal(networkNamed('XRP Ledger'), 'xrp');
  assert.equal(networkNamed(null, 'USDC_BASE'), 'base');
  assert.equal(networkNamed(null, 'USDT_TRON'), 'tron');
  assert.equal(networkNamed(undefined, 'BTC'), 'bitcoin');
  assert.equal(networkNamed('Dogechain', 'DOGE'), undefined);
});
