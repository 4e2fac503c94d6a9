/**
 * Chains a customer can get a permanent deposit address on (payments API `chains`, docs/upstream.md#enumerations). The payments
 * API has no endpoint listing them, so the list is ours; the catalog shows it and deposit addresses accept it.
 */
export const depositChains = [
  { id: 'base', name: 'Base' },
  { id: 'ethereum', name: 'Ethereum' },
  { id: 'polygon', name: 'Polygon' },
  { id: 'arbitrum', name: 'Arbitrum' },
  { id: 'solana', name: 'Solana' },
  { id: 'tron', name: 'Tron' },
  { id: 'bitcoin', name: 'Bitcoin' },
  { id: 'litecoin', name: 'Litecoin' },
  // Shared addresses told apart by a memo (destination tag), which the customer must send with the deposit.
  { id: 'xrp', name: 'XRP Ledger' },
  { id: 'ton', name: 'TON' },
] as const;

const networkNames: Readonly<Record<string, string>> = {
  ...Object.fromEntries(depositChains.map((chain) => [chain.id, chain.name])),
  bsc: 'BNB Smart Chain',
  avalanche: 'Avalanche',
  dogecoin: 'Dogecoin',
};

/** `base` → `Base`; unknown networks are capitalised. */
export const networkName = (network: string) =>
  networkNames[network.toLowerCase()] ?? network.charAt(0).toUpperCase() + network.slice(1);
