/**
 * Making an order: what is charged (a catalog product, or a merchant-signed checkout token), the upstream order
 * (its `externalId` and idempotency key are our order id, its return page ours), and the ledger entry. An attempt
 * that may have been made before (a timeout, a process that died: the idempotency claim says `uncertain`) first
 * looks for the order that attempt made, so a retry answers with it instead of making a second, payable order.
 */
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { isAllowedUrl } from '../origins.ts';
import type { ProductCatalog } from '../products.ts';
import { acceptedSecrets, type Keyring } from '../secrets/keyring.ts';
import { notePreviousSecret } from '../secrets/previous-use.ts';
import { openCheckoutToken } from '../tokens.ts';
import type { PaymentsClient } from '../upstream/payments-client.ts';
import type { OrderLedger } from './ledger.ts';
import { type MadeUpstream, newOrderRecord, type OrderProduct } from './order.ts';
import type { CreateOrderBody, CreateOrderResponse } from './schemas.ts';

export interface OrderMakerDeps {
  config: { publicUrl: string; secrets: { checkoutToken: Keyring }; allowedOrigins: readonly string[] };
  payments: Pick<PaymentsClient, 'createOrder' | 'listOrders'>;
  clock: Clock;
  ledger: Pick<OrderLedger, 'create' | 'track'>;
  catalog: Pick<ProductCatalog, 'get'>;
  /** Counts a token signed with a previous CHECKOUT_TOKEN_SECRET. */
  metrics: Pick<Metrics, 'previousSecretAccepted'>;
}

/** The claim an order is made under: our id and status token, fixed when its Idempotency-Key was first claimed. */
export interface OrderClaim {
  orderId: string;
  statusToken: string;
  /** An earlier attempt with this claim may have made the upstream order already. */
  uncertain: boolean;
}

export function createOrderMaker({ config, payments, clock, ledger, catalog, metrics }: OrderMakerDeps) {
  /** What the order charges: refused (404, 401) before anything is made. */
  async function productOf(body: CreateOrderBody): Promise<OrderProduct> {
    if (body.product !== undefined) {
      const product = await catalog.get(body.product);
      if (!product) throw new AppError('NOT_FOUND', 'No such product.');
      return {
        id: product.id,
        name: product.name,
        description: product.description,
        imageUrl: product.image,
        price: product.price,
        currency: product.currency,
        reference: null,
        metadata: null,
      };
    }
    const { payload: token, secret } = openCheckoutToken(
      body.checkoutToken ?? '',
      acceptedSecrets(config.secrets.checkoutToken, clock.now()),
      clock.now(),
    );
    notePreviousSecret(
      metrics,
      'CHECKOUT_TOKEN_SECRET_PREVIOUS',
      config.secrets.checkoutToken,
      secret,
      'a checkout token',
    );
    return {
      id: null,
      name: token.name,
      description: token.description ?? '',
      imageUrl: token.imageUrl ?? null,
      price: token.price,
      currency: token.currency,
      reference: token.reference ?? null,
      metadata: token.metadata ?? null,
    };
  }

  /** The upstream order an earlier attempt with this order id made, if any (its `externalId` is our id). */
  async function findMade(orderId: string): Promise<MadeUpstream | undefined> {
    const { orders } = await payments.listOrders({ searchId: orderId, limit: 10 });
    const found = orders.find((o) => (o.externalId ?? o.metadata?.externalId) === orderId && o.link);
    return found?.link ? { id: found.id, link: found.link, order: found } : undefined;
  }

  /** Makes the upstream order (or finds the one an uncertain earlier attempt made) and records it. */
  async function make(
    body: CreateOrderBody,
    product: OrderProduct,
    claim: OrderClaim,
    origin: string | null,
    earlier?: MadeUpstream,
  ): Promise<CreateOrderResponse> {
    const customer = body.customer ?? {};
    const made =
      earlier ??
      (claim.uncertain ? await findMade(claim.orderId) : undefined) ??
      (await payments.createOrder(
        {
          purchase: {
            name: product.name,
            ...(product.description ? { description: product.description } : {}),
            ...(product.imageUrl ? { imageUrl: product.imageUrl } : {}),
            price: product.price,
            currency: product.currency,
          },
          metadata: {
            externalId: claim.orderId,
            redirectUrl: `${config.publicUrl}/api/orders/${claim.orderId}/return`,
            userName: customer.name,
            userEmail: customer.email,
            userCountry: customer.country,
            userLang: customer.lang,
          },
        },
        { idempotencyKey: claim.orderId },
      ));
    const record = newOrderRecord(
      {
        id: claim.orderId,
        statusToken: claim.statusToken,
        product,
        returnUrl: body.returnUrl ?? null,
        origin,
        customer,
      },
      made,
      new Date(clock.now()).toISOString(),
    );
    await ledger.create(record);
    return {
      orderId: record.id,
      link: record.link,
      status: record.status,
      expiresAt: record.expiresAt,
      statusToken: claim.statusToken,
      product: { name: product.name, price: product.price, currency: product.currency },
    };
  }

  return {
    /** What the request charges, once its return URL is checked: refused (4xx) before anything is made. */
    async prepare(body: CreateOrderBody): Promise<OrderProduct> {
      if (body.returnUrl !== undefined && !isAllowedUrl(body.returnUrl, config.allowedOrigins)) {
        throw new AppError(
          'RETURN_URL_NOT_ALLOWED',
          'returnUrl must be on one of the shop’s allowed origins.',
          {
            issues: [{ path: 'returnUrl', message: 'not on an allowed origin' }],
          },
        );
      }
      return productOf(body);
    },

    /** Makes the order, marked as being created in the ledger meanwhile (a webhook may beat the upstream's answer). */
    create(body: CreateOrderBody, product: OrderProduct, claim: OrderClaim, origin: string | null) {
      return ledger.track(claim.orderId, make(body, product, claim, origin));
    },

    /**
     * For a claim whose attempt ended uncertain: the order that attempt made, recorded as it would have been,
     * or undefined when the upstream has none (yet).
     */
    async reconcile(body: CreateOrderBody, product: OrderProduct, claim: OrderClaim, origin: string | null) {
      const earlier = await findMade(claim.orderId);
      if (!earlier) return undefined;
      return ledger.track(claim.orderId, make(body, product, claim, origin, earlier));
    },
  };
}

export type OrderMaker = ReturnType<typeof createOrderMaker>;
