/**
 * Checkout and customer tokens: what a merchant's own server mints so the browser can carry a price or a
 * customer identity it cannot forge. Format: `base64url(JSON payload).base64url(HMAC-SHA256(secret, part 1))`,
 * the payload carrying `typ` ('checkout' | 'customer'), `iat` and `exp` (epoch seconds), and `kid`: which
 * secret signed it (secrets/keyring.ts `keyId`), so that during a rotation the backend verifies each token with
 * the secret that signed it, current or previous. Tokens minted before `kid` existed are tried with each.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { AppError } from './errors.ts';
import { priceAmount, refuseExcessDecimals } from './money.ts';
import { currencyCode } from './schemas/codes.ts';
import { keyId } from './secrets/keyring.ts';

/** Seconds until expiry; an hour unless the merchant says otherwise (a year at most). */
const lifetime = z
  .number()
  .int()
  .min(1)
  .max(60 * 60 * 24 * 365)
  .default(60 * 60);
const secretSchema = z.string().min(16, 'the secret must be at least 16 characters');

const checkoutTokenFields = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).optional(),
  imageUrl: z.url({ protocol: /^https?$/ }).optional(),
  price: priceAmount,
  currency: currencyCode,
  /** The merchant's own reference (a cart or order id); echoed back as the upstream order's externalId. */
  reference: z.string().min(1).max(100).optional(),
  /** The merchant's own key-value notes, told back in the order's fulfilment events (never sent upstream). */
  metadata: z
    .record(z.string().min(1).max(40), z.string().max(500))
    .refine((entries) => Object.keys(entries).length <= 20, 'at most 20 keys')
    .optional(),
  expiresInSeconds: lifetime,
});

/** A price with more decimals than its currency is refused, never rounded (issue 42 item 7). */
export const checkoutTokenInput = checkoutTokenFields.superRefine((token, ctx) =>
  refuseExcessDecimals(ctx, 'price', token.price, token.currency, 'fiat'),
);

export const customerTokenInput = z.object({
  /** The merchant's stable id for this customer; one payment route per customer and chain hangs on it. */
  customerId: z.string().min(1).max(100),
  email: z.email().optional(),
  name: z.string().max(100).optional(),
  expiresInSeconds: lifetime,
});

export type CheckoutTokenInput = z.input<typeof checkoutTokenInput>;
export type CustomerTokenInput = z.input<typeof customerTokenInput>;

const claims = { iat: z.number().int(), exp: z.number().int() };

export const checkoutTokenPayload = checkoutTokenFields
  .omit({ expiresInSeconds: true })
  .extend({ typ: z.literal('checkout'), ...claims });
export const customerTokenPayload = customerTokenInput
  .omit({ expiresInSeconds: true })
  .extend({ typ: z.literal('customer'), ...claims });

export type CheckoutTokenPayload = z.output<typeof checkoutTokenPayload>;
export type CustomerTokenPayload = z.output<typeof customerTokenPayload>;

const sign = (body: string, secret: string) => createHmac('sha256', secret).update(body).digest('base64url');

function mint(payload: object, secret: string): string {
  const body = Buffer.from(JSON.stringify({ ...payload, kid: keyId(secret) })).toString('base64url');
  return `${body}.${sign(body, secret)}`;
}

/** Mints a checkout token (throws a ZodError on bad input). `now` is for tests; defaults to the system clock. */
export function createCheckoutToken(input: CheckoutTokenInput, secret: string, now = Date.now()): string {
  const { expiresInSeconds, ...fields } = checkoutTokenInput.parse(input);
  const iat = Math.floor(now / 1000);
  return mint({ typ: 'checkout', ...fields, iat, exp: iat + expiresInSeconds }, secretSchema.parse(secret));
}

/** Mints a customer token, used for the customer's permanent deposit addresses. */
export function createCustomerToken(input: CustomerTokenInput, secret: string, now = Date.now()): string {
  const { expiresInSeconds, ...fields } = customerTokenInput.parse(input);
  const iat = Math.floor(now / 1000);
  return mint({ typ: 'customer', ...fields, iat, exp: iat + expiresInSeconds }, secretSchema.parse(secret));
}

const invalid = () => new AppError('TOKEN_INVALID', 'The token is not valid.');

/** One secret, or every secret accepted now (the current first), as `acceptedSecrets` lists them. */
export type TokenSecrets = string | readonly string[];

const signedBy = (body: string, signature: string, secret: string) => {
  const expected = Buffer.from(sign(body, secret));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
};

/**
 * Signature first (constant time), then shape and type, then expiry: a forged token learns nothing more. The
 * payload is decoded before the signature is checked only to read `kid`, which picks the secret; a token whose
 * `kid` names no accepted secret (one retired after a rotation) is invalid like any other.
 */
function open<S extends z.ZodType<{ exp: number }>>(
  token: string,
  secrets: TokenSecrets,
  schema: S,
  now: number,
) {
  const parts = token.split('.');
  if (parts.length !== 2) throw invalid();
  const [body = '', signature = ''] = parts;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const kid = (json as { kid?: unknown } | null)?.kid;
  const listed = typeof secrets === 'string' ? [secrets] : secrets;
  const candidates = typeof kid === 'string' ? listed.filter((secret) => keyId(secret) === kid) : listed;
  const secret = candidates.find((candidate) => signedBy(body, signature, candidate));
  if (secret === undefined) throw invalid();
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw invalid();
  if (parsed.data.exp * 1000 <= now) throw new AppError('TOKEN_EXPIRED', 'The token has expired.');
  return { payload: parsed.data as z.output<S>, secret };
}

/** A token's payload and the secret that signed it (which one of a rotation's, for secrets/previous-use.ts). */
export interface Opened<P> {
  payload: P;
  secret: string;
}

export const openCheckoutToken = (
  token: string,
  secrets: TokenSecrets,
  now = Date.now(),
): Opened<CheckoutTokenPayload> => open(token, secrets, checkoutTokenPayload, now);

export const openCustomerToken = (
  token: string,
  secrets: TokenSecrets,
  now = Date.now(),
): Opened<CustomerTokenPayload> => open(token, secrets, customerTokenPayload, now);

export function verifyCheckoutToken(
  token: string,
  secrets: TokenSecrets,
  now = Date.now(),
): CheckoutTokenPayload {
  return openCheckoutToken(token, secrets, now).payload;
}

export function verifyCustomerToken(
  token: string,
  secrets: TokenSecrets,
  now = Date.now(),
): CustomerTokenPayload {
  return openCustomerToken(token, secrets, now).payload;
}
