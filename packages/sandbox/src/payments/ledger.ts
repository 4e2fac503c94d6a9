/**
 * The payments side's in-memory state for one sandbox: orders per merchant, idempotency keys and payment
 * routes. It runs the pure transitions of orders.ts, keeps the results and sends the webhooks they call for.
 */
import { webhookSecretFor } from '../keys.ts';
import type { PartKey, SandboxState } from '../state.ts';
import { CRYPTOS, codesOnChain, fiatToCrypto, isChain } from './currencies.ts';
import { cryptoRandom, type RandomSource, stableUuid } from './ids.ts';
import type { OrderRecord } from './order.ts';
import { type CreateOrderInput, createOrder, settle } from './order-transitions.ts';
import { receiveRouteDeposit } from './payment-receipts.ts';
import { makeRoute, type PaymentRoute } from './payment-routes.ts';
import type { Context, OrderEvent, Transition } from './transition.ts';
import { webhookBody, webhookFacts } from './webhooks.ts';

/** A request that cannot be served as asked; the HTTP layers map `status` to their own envelope. */
export class LedgerError extends Error {
  override readonly name = 'LedgerError';
  constructor(
    readonly status: 404 | 409 | 422,
    message: string,
  ) {
    super(message);
  }
}

/** The merchant UUID behind a sandbox key id, the same every run (`merchant.id`, webhook `merchantId`). */
export const merchantUuidOf = (merchantKey: string) => stableUuid(`merchant:${merchantKey}`);

const bookKey = (...parts: string[]) => parts.join('\n');

export class PayLedger {
  readonly #state: SandboxState;
  readonly #random: RandomSource;
  readonly #orders = new Map<string, OrderRecord>();
  readonly #idempotency = new Map<string, { fingerprint: string; orderId: string }>();
  readonly #routes = new Map<string, { merchantKey: string; route: PaymentRoute }>();

  constructor(state: SandboxState, random: RandomSource = cryptoRandom) {
    this.#state = state;
    this.#random = random;
    state.onReset(() => {
      this.#orders.clear();
      this.#idempotency.clear();
      this.#routes.clear();
    });
    state.persist('payments', {
      save: () => ({
        orders: [...this.#orders],
        idempotency: [...this.#idempotency],
        routes: [...this.#routes],
      }),
      load: (data) => {
        const saved = data as {
          orders: Array<[string, OrderRecord]>;
          idempotency: Array<[string, { fingerprint: string; orderId: string }]>;
          routes: Array<[string, { merchantKey: string; route: PaymentRoute }]>;
        };
        for (const [id, record] of saved.orders) this.#orders.set(id, record);
        for (const [key, entry] of saved.idempotency) this.#idempotency.set(key, entry);
        for (const [key, entry] of saved.routes) this.#routes.set(key, entry);
      },
    });
  }

  #context(): Context {
    const random = this.#random;
    // Order ids are random; a collision with a stored one is drawn again rather than overwriting it.
    const orderId = () => {
      for (;;) {
        const id = `${this.#state.settings.orderIds === 'sp-prefixed' ? 'SP-' : ''}${random.orderId()}`;
        if (!this.#orders.has(id)) return id;
      }
    };
    return { now: this.#state.now(), random: { ...random, orderId } };
  }

  #creationContext(merchantKey: string) {
    return {
      ...this.#context(),
      merchantKey,
      merchantUuid: merchantUuidOf(merchantKey),
      link: (id: string) => `${this.#state.baseUrl}/pay/${id}`,
      ttlMs: this.#state.settings.orderTtlMs,
      webhookUrl: this.#state.webhookUrlFor(merchantKey),
    };
  }

  #commit({ record, events }: Transition): OrderRecord {
    const changed = this.#orders.get(record.order.id) !== record;
    this.#orders.set(record.order.id, record);
    if (changed) this.#state.changed();
    for (const event of events) this.#notify(record, event);
    return record;
  }

  #notify(record: OrderRecord, event: OrderEvent): void {
    if (!record.webhookUrl) return;
    const facts = webhookFacts(record, event, this.#random.uuid());
    this.#state.deliveries.send({
      kind: 'payments-webhook',
      merchantId: record.merchantKey,
      url: record.webhookUrl,
      event: event.type,
      payload: webhookBody(facts, this.#state.settings.webhookCasing),
      secret: webhookSecretFor(record.merchantKey),
      signatureHeader: 'x-swapped-signature',
    });
  }

  /**
   * Creates an order, or with an idempotency key already used by this merchant returns that key's order
   * (`replayed`). The same key with a different body is refused, as Stripe does.
   */
  create(
    merchantKey: string,
    input: CreateOrderInput,
    idempotencyKey?: string,
  ): { record: OrderRecord; replayed: boolean } {
    const fingerprint = JSON.stringify(input);
    const slot = idempotencyKey ? bookKey(merchantKey, idempotencyKey) : undefined;
    const previous = slot ? this.#idempotency.get(slot) : undefined;
    if (previous) {
      if (previous.fingerprint !== fingerprint) {
        throw new LedgerError(422, 'Idempotency key already used with a different request body');
      }
      const record = this.get(previous.orderId);
      if (record) return { record, replayed: true };
    }
    const record = this.#commit(createOrder(input, this.#creationContext(merchantKey)));
    if (slot) {
      this.#idempotency.set(slot, { fingerprint, orderId: record.order.id });
      this.#state.changed();
    }
    return { record, replayed: false };
  }

  /** The order with lazy expiry applied, whoever asks (page, controls) — undefined when unknown. */
  get(orderId: string): OrderRecord | undefined {
    const record = this.#orders.get(orderId);
    return record && this.#commit(settle(record, this.#context()));
  }

  /** A merchant's orders, newest first. */
  list(merchantKey: string): OrderRecord[] {
    const mine = [...this.#orders.values()].filter((r) => r.merchantKey === merchantKey);
    return mine.map((r) => this.get(r.order.id) ?? r).reverse();
  }

  /** Runs one transition on a known order (after lazy expiry) and sends what it calls for. */
  apply(orderId: string, step: (record: OrderRecord, ctx: Context) => Transition): OrderRecord {
    const record = this.get(orderId);
    if (!record) throw new LedgerError(404, `Order ${orderId} not found`);
    return this.#commit(step(record, this.#context()));
  }

  /** The route for (merchant, externalId, chain), created on first request and returned as-is afterwards. */
  route(merchantKey: string, request: { externalId: string; chain: string; email: string; name: string }) {
    if (!isChain(request.chain)) throw new LedgerError(422, `Unsupported chain ${request.chain}`);
    const key = bookKey(merchantKey, request.externalId, request.chain);
    let route = this.#routes.get(key)?.route;
    if (!route) {
      route = makeRoute({
        ...request,
        chain: request.chain,
        merchantKey,
        merchantUuid: merchantUuidOf(merchantKey),
        now: this.#state.now(),
      });
      this.#routes.set(key, { merchantKey, route });
      this.#state.changed();
    }
    return route;
  }

  /** Simulates crypto arriving at a route (any merchant's): a PAYMENT_ROUTE order, paid, ORDER_COMPLETED. */
  /** The id of the route at this address (and memo, on memo chains), or 404. */
  routeIdAt(address: string, memo?: string): string {
    const entry = [...this.#routes.values()].find(
      ({ route }) =>
        route.address.toLowerCase() === address.toLowerCase() &&
        (route.memo || undefined) === (memo || undefined),
    );
    if (!entry) throw new LedgerError(404, `No payment route at ${address}${memo ? ` memo ${memo}` : ''}`);
    return entry.route.id;
  }

  deposit(routeId: string, currency?: string, amount?: string): OrderRecord {
    const entry = [...this.#routes.values()].find(({ route }) => route.id === routeId);
    if (!entry) throw new LedgerError(404, `Payment route ${routeId} not found`);
    const { merchantKey, route } = entry;
    const code = currency ?? codesOnChain(route.chainName)[0];
    if (!code || CRYPTOS[code]?.chain !== route.chainName) {
      throw new LedgerError(422, `${currency} cannot be paid on ${route.chainName}`);
    }
    const ref = { id: route.id, externalId: route.externalId, address: route.address, memo: route.memo };
    return this.#commit(
      receiveRouteDeposit(
        {
          route: ref,
          code,
          amount: amount ?? fiatToCrypto('10', 'USD', code, this.#state.now()),
          email: route.userEmail,
          name: route.userName,
        },
        this.#creationContext(merchantKey),
      ),
    );
  }
}

export const PAY_LEDGER: PartKey<PayLedger> = { name: 'payments', create: (state) => new PayLedger(state) };

/** The sandbox's one payments ledger, shared by the API, the pages and the controls. */
export const ledgerOf = (state: SandboxState): PayLedger => state.part(PAY_LEDGER);
