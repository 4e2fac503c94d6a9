/** Which method a quote is for: the one the shopper picked, if their country offers it for their fiat and crypto. */
import { AppError } from '../errors.ts';
import { isOffered, type RampMethod, type RampSupported } from '../schemas/upstream-ramp.ts';

/** The method a shopper picked, if the country offers it enabled and it takes the fiat. */
export function pickMethod(
  methods: readonly RampMethod[],
  id: string,
  fiat: string,
  side: 'buy' | 'sell',
): RampMethod {
  const candidates = methods.filter((method) => isOffered(method, id));
  if (candidates.length === 0) {
    throw new AppError(
      'METHOD_UNAVAILABLE',
      `The ${side === 'buy' ? 'payment' : 'payout'} method is not offered in this country.`,
    );
  }
  const method = candidates.find((candidate) => candidate.currencies.includes(fiat));
  if (!method) throw new AppError('METHOD_UNAVAILABLE', `The method does not take ${fiat}.`);
  return method;
}

/**
 * A check that the ramp lists a crypto: one it does not is the client's mistake (422), not a refused quote (502).
 * The codes (iso and tags, upper case) are collected once per `get_supported` answer.
 */
export function createCryptoCheck(supported: () => Promise<RampSupported>) {
  const cryptoCodes = new WeakMap<object, Set<string>>();
  return async function checkCrypto(code: string): Promise<void> {
    const list = await supported();
    let codes = cryptoCodes.get(list);
    if (!codes) {
      codes = new Set(
        list.supported_cryptos.flatMap((crypto) =>
          [crypto.iso, ...(crypto.tags ?? [])].map((tag) => tag.toUpperCase()),
        ),
      );
      cryptoCodes.set(list, codes);
    }
    if (!codes.has(code)) {
      throw new AppError('VALIDATION_FAILED', 'crypto: is not supported', {
        issues: [{ path: 'crypto', message: 'is not supported' }],
      });
    }
  };
}
