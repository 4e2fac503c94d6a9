/**
 * A customer's permanent deposit address (an upstream payment route) for one chain. The customer comes from a
 * token the merchant's server minted; the route is created upstream once per (customer, chain), kept in the
 * store's `routes` collection and reused afterwards. The QR code is drawn here so the widget stays light.
 */
import qrcode from 'qrcode-generator';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import { createKeyedLock } from '../keyed-lock.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { acceptedSecrets, type Keyring } from '../secrets/keyring.ts';
import { notePreviousSecret } from '../secrets/previous-use.ts';
import type { Store } from '../store/store.ts';
import { openCustomerToken } from '../tokens.ts';
import { isValueRefusal } from '../upstream/http.ts';
import type { PaymentsClient } from '../upstream/payments-client.ts';

export interface RouteRecord {
  customerId: string;
  chain: string;
  routeId: string | null;
  address: string;
  memo: string | null;
  currencies: string[];
  createdAt: string;
}

/**
 * The address alone, not a `ethereum:` style URI: exchanges' and wallets' scanners agree on a bare address,
 * while URI schemes differ per chain and wallet. The memo, when there is one, is shown as text by the widget.
 */
export function qrSvg(text: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  return qr.createSvgTag({ cellSize: 4, margin: 2, scalable: true });
}

export interface DepositAddressesDeps {
  config: { secrets: { checkoutToken: Keyring } };
  payments: Pick<PaymentsClient, 'createPaymentRoute'>;
  store: Store;
  clock: Clock;
  /** Counts a token signed with a previous CHECKOUT_TOKEN_SECRET. */
  metrics: Pick<Metrics, 'previousSecretAccepted'>;
}

export function createDepositAddresses({ config, payments, store, clock, metrics }: DepositAddressesDeps) {
  const lock = createKeyedLock();
  return {
    /** The address of the customer the token names on `chain`: made upstream the first time, then reused. */
    async of(customerToken: string, chain: string): Promise<{ record: RouteRecord; reused: boolean }> {
      const { payload: customer, secret } = openCustomerToken(
        customerToken,
        acceptedSecrets(config.secrets.checkoutToken, clock.now()),
        clock.now(),
      );
      notePreviousSecret(
        metrics,
        'CHECKOUT_TOKEN_SECRET_PREVIOUS',
        config.secrets.checkoutToken,
        secret,
        'a customer token',
      );
      // The chain cannot contain ':', so this key cannot collide across customers.
      const key = `${chain}:${customer.customerId}`;
      return lock.run(key, async () => {
        const existing = await store.get<RouteRecord>('routes', key);
        if (existing) return { record: existing, reused: true };
        let route: Awaited<ReturnType<typeof payments.createPaymentRoute>>;
        try {
          route = await payments.createPaymentRoute({
            externalId: customer.customerId,
            chains: [chain],
            email: customer.email,
            name: customer.name,
          });
        } catch (error) {
          // The upstream names the chains it supports; a 4xx about our request means this chain is not one.
          if (isValueRefusal(error)) {
            throw new AppError('VALIDATION_FAILED', 'chain: not supported for deposit addresses', {
              issues: [{ path: 'chain', message: 'not supported for deposit addresses' }],
            });
          }
          throw error;
        }
        const created: RouteRecord = {
          customerId: customer.customerId,
          chain,
          routeId: route.id ?? null,
          address: route.address,
          memo: route.memo || null,
          currencies: route.supportedCurrencies.filter(Boolean),
          createdAt: route.createdAt ?? new Date(clock.now()).toISOString(),
        };
        await store.set('routes', key, created);
        return { record: created, reused: false };
      });
    },
  };
}
