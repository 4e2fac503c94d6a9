/**
 * Sandbox keys, as stripe-mock does it: any key of the sandbox's form is accepted, every other refused.
 * Each `<id>` is its own merchant (its own orders, routes and webhook destination).
 *   ramp public  pk_sandbox_<id>     ramp secret  sk_sandbox_<id>  (signs widget URLs and ramp callbacks)
 *   payments     pay_sandbox_<id>    webhooks     whsec_sandbox_<id>
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const ID = '([A-Za-z0-9-]{1,64})';
const patterns = {
  rampPublic: new RegExp(`^pk_sandbox_${ID}$`),
  rampSecret: new RegExp(`^sk_sandbox_${ID}$`),
  payments: new RegExp(`^pay_sandbox_${ID}$`),
  webhook: new RegExp(`^whsec_sandbox_${ID}$`),
} as const;

export type KeyKind = keyof typeof patterns;

/** The merchant id carried by a sandbox key of that kind, or undefined when the key is not one. */
export function merchantOf(kind: KeyKind, key: string | null | undefined): string | undefined {
  if (!key) return undefined;
  return patterns[kind].exec(key)?.[1];
}

export const rampSecretFor = (merchantId: string) => `sk_sandbox_${merchantId}`;
export const webhookSecretFor = (merchantId: string) => `whsec_sandbox_${merchantId}`;

/** base64 HMAC-SHA256, the scheme of widget URLs, ramp callbacks and payments webhooks. */
export function hmacBase64(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
