/** A complete live environment as an operator writes it, and the problems `loadConfig` finds in one. */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../src/config.ts';

export const liveEnv = {
  RAMP_API_URL: 'https://ramp.example',
  RAMP_WIDGET_URL: 'https://ramp.example',
  RAMP_PUBLIC_KEY: 'pk_live_4f9c2a7e1b',
  RAMP_SECRET_KEY: 'sk_live_8d3e61b0c5a94f27',
  PAY_API_URL: 'https://pay.example',
  PAY_API_KEY: 'pay_live_2b7d9e4a1c6f',
  PAY_WEBHOOK_SECRET: 'whsec_5e1a8c3f7b2d9046',
  PUBLIC_URL: 'https://checkout.example',
  ALLOWED_ORIGINS: 'https://shop.example',
  CHECKOUT_TOKEN_SECRET: 'a-checkout-secret-long-enough',
  ADMIN_TOKEN: 'an-admin-token-long-enough',
  PRODUCTS_FILE: fileURLToPath(new URL('./fixtures/products.json', import.meta.url)),
};

/** Every problem `loadConfig` reports for `env`, one a line; fails the test if it accepts it. */
export function problemsOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems.join('\n');
  }
  assert.fail('loadConfig accepted the environment');
}
