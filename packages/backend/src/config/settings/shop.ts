/** The shop's settings: its catalog, markup and country, the secrets its own server uses, its event receivers. */
import { z } from 'zod';
import { countryMessage, notAUrl, numeric, rules, secret, url, urlOf } from '../rules.ts';
import { setting } from '../setting.ts';

export const shopSettings = {
  MARKUP: setting({
    env: numeric(rules.markup).default(0),
    doc: 'Your markup on ramp quotes and widget sessions, percent, 0 to 5.',
    at: 'markup',
    code: rules.markup,
  }),
  PRODUCTS_FILE: setting({
    env: z.string().min(1).optional(),
    doc: 'The product catalog (JSON), or `none` for checkouts priced by checkout tokens only.',
    at: 'productsFile',
    code: z.string().min(1).nullable(),
    decided: true,
  }),
  CHECKOUT_TOKEN_SECRET: setting({
    env: secret('CHECKOUT_TOKEN_SECRET').optional(),
    doc: 'Signs checkout and customer tokens your own server mints (at least 16 characters).',
    at: 'checkoutTokenSecret',
    code: secret('CHECKOUT_TOKEN_SECRET'),
    decided: true,
  }),
  ADMIN_TOKEN: setting({
    env: secret('ADMIN_TOKEN').optional(),
    doc: 'The older single bearer token of /api/admin/*: the write credential named "admin".',
    at: 'adminToken',
    code: secret('ADMIN_TOKEN').optional(),
    decided: true,
  }),
  DEFAULT_COUNTRY: setting({
    env: z
      .string()
      .regex(/^[A-Za-z]{2}$/, countryMessage)
      .transform((value) => value.toUpperCase())
      .default('DE'),
    doc: 'The country a shopper starts in when the element names none.',
    at: 'defaultCountry',
    code: z.string().regex(/^[A-Z]{2}$/, countryMessage),
  }),
  MERCHANT_WEBHOOK_URL: setting({
    env: z
      .string()
      .optional()
      .transform((value, ctx) => {
        const urls = (value ?? '')
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean);
        for (const raw of urls) {
          if (!url.safeParse(raw).success) ctx.addIssue({ code: 'custom', message: notAUrl(raw) });
        }
        return urls.map((raw) => raw.replace(/\/+$/, ''));
      }),
    doc: 'Where fulfilment events go (comma-separated URLs), signed per Standard Webhooks with the secret below.',
    at: 'events.webhookUrls',
    code: z.array(urlOf),
  }),
  MERCHANT_WEBHOOK_SECRET: setting({
    env: rules.webhookSecret.optional(),
    doc: 'The Standard Webhooks secret of your receivers (whsec_ and base64); events are always signed.',
    at: 'events.webhookSecret',
    code: rules.webhookSecret.optional(),
  }),
};
