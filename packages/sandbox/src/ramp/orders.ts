/**
 * Ramp orders made through the hosted widget, per merchant: their status machine
 * (docs/upstream.md#ramp-webhooks), the signed callbacks each status change sends to the order's
 * `responseUrl`, and the widget sessions that precede them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { rampSecretFor } from '../keys.ts';
import type { PartKey, SandboxState } from '../state.ts';
import { type Crypto, type Fiat, findFiat } from './catalog.ts';
import { type BuyQuote, round2, type SellQuote } from './quote-math.ts';

export type RampOrderStatus =
  | 'payment_pending'
  | 'payout_pending'
  | 'order_completed'
  | 'order_broadcasted'
  | 'order_cancelled';

export type RampOrderType = 'buy' | 'sell';

/** What a verified widget URL asked for; kept server-side so later steps need no signature again. */
export interface RampSession {
  id: string;
  merchantId: string;
  type: RampOrderType;
  crypto: Crypto;
  fiat: Fiat;
  region: string;
  /** Payment group (buy) or payout slug (sell) the quote was made with. */
  method: string;
  walletAddress: string | undefined;
  destinationTag: string | undefined;
  email: string | undefined;
  externalCustomerId: string | undefined;
  redirectUrl: string | undefined;
  responseUrl: string | undefined;
  /** Percent, or undefined for the merchant's default. */
  markup: number | undefined;
  /** The amount the customer asked for; only one is set (fiat for buy wins, crypto for sell wins). */
  fiatAmount: number | undefined;
  cryptoAmount: number | undefined;
  lockAmount: boolean;
  language: string;
}

export interface RampOrder {
  id: string;
  merchantId: string;
  type: RampOrderType;
  status: RampOrderStatus;
  crypto: Crypto;
  quote: BuyQuote | SellQuote;
  /** Buy: the customer's wallet. Sell: the deposit address the customer must send to. */
  address: string;
  tag: string | null;
  email: string;
  externalCustomerId: string | null;
  responseUrl: string | undefined;
  redirectUrl: string | undefined;
  transactionId: string | null;
  createdAt: number;
}

/**
 * The body of a ramp callback (docs/upstream.md#ramp-webhooks); `order_crypto_amount` is a string, as in the
 * newer samples.
 */
export interface RampCallback {
  order_id: string;
  external_transaction_id: null;
  external_customer_id: string | null;
  order_status: RampOrderStatus;
  order_crypto: string;
  order_type: RampOrderType;
  order_crypto_amount: string;
  order_crypto_address: string;
  order_crypto_tag: string | null;
  order_amount_usd: number;
  order_amount_usd_plus_fees: number;
  order_amount_eur: number;
  order_amount_eur_plus_fees: number;
  network: string;
  transaction_id?: string;
}

const next: Record<RampOrderType, Partial<Record<RampOrderStatus, readonly RampOrderStatus[]>>> = {
  buy: { payment_pending: ['order_completed', 'order_cancelled'], order_completed: ['order_broadcasted'] },
  sell: { payment_pending: ['payout_pending', 'order_cancelled'], payout_pending: ['order_completed'] },
};

/** How long after `order_completed` (buy) or `payout_pending` (sell) the next status follows on its own. */
const FOLLOW_UP_MS = 300;

const usd = findFiat('USD')!;
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

function randomChars(alphabet: string, length: number): string {
  return Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
}

/** A fresh address in the network's usual format (not a valid key, only the right look). */
export function fakeAddress(network: string): string {
  switch (network) {
    case 'bitcoin':
      return `bc1q${randomChars(BECH32, 38)}`;
    case 'litecoin':
      return `ltc1q${randomChars(BECH32, 38)}`;
    case 'bitcoin-cash':
      return `bitcoincash:q${randomChars(BECH32, 41)}`;
    case 'solana':
      return randomChars(BASE58, 44);
    case 'tron':
      return `T${randomChars(BASE58, 33)}`;
    case 'ripple':
      return `r${randomChars(BASE58, 33)}`;
    case 'dogecoin':
      return `D${randomChars(BASE58, 33)}`;
    case 'ton':
      return `UQ${randomBytes(34).toString('base64url').slice(0, 46)}`;
    default:
      return `0x${randomBytes(20).toString('hex')}`;
  }
}

function fakeTransactionId(network: string): string {
  if (network === 'solana') return randomChars(BASE58, 88);
  const hex = randomBytes(32).toString('hex');
  return ['ethereum', 'base', 'arbitrum', 'polygon'].includes(network) ? `0x${hex}` : hex;
}

export function callbackOf(order: RampOrder): RampCallback {
  const { quote } = order;
  return {
    order_id: order.id,
    external_transaction_id: null,
    external_customer_id: order.externalCustomerId,
    order_status: order.status,
    order_crypto: order.crypto.iso,
    order_type: order.type,
    order_crypto_amount: String(quote.crypto_amount),
    order_crypto_address: order.address,
    order_crypto_tag: order.tag,
    order_amount_usd: round2(quote.fiat_amount_excl_fees / usd.eur),
    order_amount_usd_plus_fees: round2(quote.fiat_amount_incl_fees / usd.eur),
    order_amount_eur: quote.fiat_amount_excl_fees,
    order_amount_eur_plus_fees: quote.fiat_amount_incl_fees,
    network: order.crypto.network,
    ...(order.transactionId ? { transaction_id: order.transactionId } : {}),
  };
}

interface MerchantRamp {
  sessions: Map<string, RampSession>;
  orders: Map<string, RampOrder>;
}

export type TransitionResult = { ok: true; order: RampOrder } | { ok: false; message: string };

export class RampStore {
  readonly #merchants = new Map<string, MerchantRamp>();

  constructor(private readonly state: SandboxState) {
    state.onReset(() => this.#merchants.clear());
  }

  #merchant(merchantId: string): MerchantRamp {
    let merchant = this.#merchants.get(merchantId);
    if (!merchant) {
      merchant = { sessions: new Map(), orders: new Map() };
      this.#merchants.set(merchantId, merchant);
    }
    return merchant;
  }

  openSession(session: Omit<RampSession, 'id'>): RampSession {
    const created = { ...session, id: randomUUID() };
    this.#merchant(session.merchantId).sessions.set(created.id, created);
    return created;
  }

  session(id: string): RampSession | undefined {
    for (const merchant of this.#merchants.values()) {
      const found = merchant.sessions.get(id);
      if (found) return found;
    }
    return undefined;
  }

  /** Orders are looked up by id alone in the widget (the id is the capability), by merchant in the API. */
  order(id: string, merchantId?: string): RampOrder | undefined {
    if (merchantId !== undefined) return this.#merchants.get(merchantId)?.orders.get(id);
    for (const merchant of this.#merchants.values()) {
      const found = merchant.orders.get(id);
      if (found) return found;
    }
    return undefined;
  }

  /** Creates the order in `payment_pending` and sends that first callback. */
  createOrder(session: RampSession, quote: BuyQuote | SellQuote, email: string): RampOrder {
    const order: RampOrder = {
      id: randomUUID(),
      merchantId: session.merchantId,
      type: session.type,
      status: 'payment_pending',
      crypto: session.crypto,
      quote,
      address:
        session.type === 'buy' && session.walletAddress
          ? session.walletAddress
          : fakeAddress(session.crypto.network),
      tag: session.crypto.memo
        ? (session.destinationTag ??
          (session.type === 'sell' ? String(100000 + randomBytes(3).readUIntBE(0, 3)) : null))
        : null,
      email,
      externalCustomerId: session.externalCustomerId ?? null,
      responseUrl: session.responseUrl,
      redirectUrl: session.redirectUrl,
      transactionId: null,
      createdAt: this.state.now(),
    };
    this.#merchant(session.merchantId).orders.set(order.id, order);
    this.#notify(order);
    return order;
  }

  /**
   * Moves an order on and sends the callback. A successful buy broadcasts shortly after completing, and a sell
   * completes shortly after its payout starts, each with its own callback.
   */
  transition(order: RampOrder, status: RampOrderStatus): TransitionResult {
    if (!next[order.type][order.status]?.includes(status)) {
      return { ok: false, message: `Order is ${order.status}; it cannot become ${status}` };
    }
    order.status = status;
    if (status === 'order_broadcasted') order.transactionId = fakeTransactionId(order.crypto.network);
    this.#notify(order);
    const followUp =
      status === 'order_completed' && order.type === 'buy'
        ? 'order_broadcasted'
        : status === 'payout_pending'
          ? 'order_completed'
          : undefined;
    if (followUp) {
      this.state.background.later(FOLLOW_UP_MS, `ramp order ${order.id} becomes ${followUp}`, () => {
        if (this.order(order.id, order.merchantId) === order) this.transition(order, followUp);
      });
    }
    return { ok: true, order };
  }

  #notify(order: RampOrder): void {
    // Only the per-order responseUrl: the sandbox has no dashboard webhook for ramp orders (README).
    if (!order.responseUrl) return;
    this.state.deliveries.send({
      kind: 'ramp-callback',
      merchantId: order.merchantId,
      url: order.responseUrl,
      event: order.status,
      payload: callbackOf(order),
      secret: rampSecretFor(order.merchantId),
      signatureHeader: 'signature',
    });
  }
}

/** The ramp store of a sandbox, shared by the ramp API (get_status) and the widget. */
export const rampStoreKey: PartKey<RampStore> = {
  name: 'ramp-orders',
  create: (state) => new RampStore(state),
};
