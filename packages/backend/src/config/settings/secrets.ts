/**
 * Secret rotation and scoped admin access: each variable's entry (its rule is secrets/config.ts's, which folds the
 * values into keyrings and credentials).
 */
import { secretVariables as rule } from '../../secrets/config.ts';
import { setting } from '../setting.ts';

const previous = (name: string) =>
  `${name} values still accepted during a rotation, comma-separated, newest first.`;
const until = (name: string) => `When the overlap of ${name}_PREVIOUS ends (an ISO date or date-time).`;

export const secretSettings = {
  CHECKOUT_TOKEN_SECRET_PREVIOUS: setting({
    env: rule.CHECKOUT_TOKEN_SECRET_PREVIOUS,
    doc: previous('CHECKOUT_TOKEN_SECRET'),
    at: 'secrets.checkoutToken',
    decided: true,
  }),
  CHECKOUT_TOKEN_SECRET_PREVIOUS_UNTIL: setting({
    env: rule.CHECKOUT_TOKEN_SECRET_PREVIOUS_UNTIL,
    doc: until('CHECKOUT_TOKEN_SECRET'),
    at: 'secrets.checkoutToken',
    decided: true,
  }),
  MERCHANT_WEBHOOK_SECRET_PREVIOUS: setting({
    env: rule.MERCHANT_WEBHOOK_SECRET_PREVIOUS,
    doc: previous('MERCHANT_WEBHOOK_SECRET'),
    at: 'secrets.merchantWebhook',
    decided: true,
  }),
  MERCHANT_WEBHOOK_SECRET_PREVIOUS_UNTIL: setting({
    env: rule.MERCHANT_WEBHOOK_SECRET_PREVIOUS_UNTIL,
    doc: until('MERCHANT_WEBHOOK_SECRET'),
    at: 'secrets.merchantWebhook',
    decided: true,
  }),
  PAY_WEBHOOK_SECRET_PREVIOUS: setting({
    env: rule.PAY_WEBHOOK_SECRET_PREVIOUS,
    doc: previous('PAY_WEBHOOK_SECRET'),
    at: 'secrets.payWebhook',
    decided: true,
  }),
  PAY_WEBHOOK_SECRET_PREVIOUS_UNTIL: setting({
    env: rule.PAY_WEBHOOK_SECRET_PREVIOUS_UNTIL,
    doc: until('PAY_WEBHOOK_SECRET'),
    at: 'secrets.payWebhook',
    decided: true,
  }),
  RAMP_SECRET_KEY_PREVIOUS: setting({
    env: rule.RAMP_SECRET_KEY_PREVIOUS,
    doc: previous('RAMP_SECRET_KEY'),
    at: 'secrets.rampSecret',
    decided: true,
  }),
  RAMP_SECRET_KEY_PREVIOUS_UNTIL: setting({
    env: rule.RAMP_SECRET_KEY_PREVIOUS_UNTIL,
    doc: until('RAMP_SECRET_KEY'),
    at: 'secrets.rampSecret',
    decided: true,
  }),
  ADMIN_CREDENTIALS: setting({
    env: rule.ADMIN_CREDENTIALS,
    doc: 'Named admin credentials: `name:read|write:sha256-hex-of-token`, comma-separated.',
    at: 'admin.credentials',
    decided: true,
  }),
  ADMIN_AUTH_MAX_FAILURES: setting({
    env: rule.ADMIN_AUTH_MAX_FAILURES,
    doc: 'Wrong admin credentials one client (IP) may send per 15 minutes before it is refused (429).',
    at: 'admin.maxFailuresPer15Minutes',
    decided: true,
  }),
};
