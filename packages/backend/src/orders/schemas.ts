/**
 * What `POST /api/orders` takes and answers. Prices never come from the browser: a catalog product id or a
 * merchant-signed checkout token decides what is charged; anything else in the body is dropped by the schema.
 */
import { z } from 'zod';
import { orderStatusSchema } from './order.ts';

export const createOrderBody = z
  .object({
    product: z.string().min(1).max(64).optional(),
    checkoutToken: z.string().min(1).max(4096).optional(),
    customer: z
      .object({
        name: z.string().trim().min(1).max(100).optional(),
        email: z.email().max(200).optional(),
        country: z
          .string()
          .regex(/^[A-Za-z]{2}$/, 'must be a 2-letter country code')
          .transform((value) => value.toUpperCase())
          .optional(),
        lang: z
          .string()
          .regex(/^[A-Za-z]{2}(-[A-Za-z0-9]{2,8})?$/, 'must be a language code like "en" or "pt-BR"')
          .optional(),
      })
      .optional(),
    returnUrl: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional(),
  })
  .refine((body) => (body.product === undefined) !== (body.checkoutToken === undefined), {
    message: 'send exactly one of product and checkoutToken',
    path: ['product'],
  })
  .meta({ id: 'CreateOrderBody' });
export type CreateOrderBody = z.output<typeof createOrderBody>;

export const createdOrderSchema = z
  .object({
    orderId: z.string(),
    link: z.string().describe("The upstream's payment page"),
    status: orderStatusSchema,
    expiresAt: z.string().nullable(),
    statusToken: z.string().describe('Needed to read the status; shown only in this answer and its replays'),
    product: z.object({ name: z.string(), price: z.string(), currency: z.string() }),
  })
  .meta({ id: 'CreatedOrder' });
export type CreateOrderResponse = z.output<typeof createdOrderSchema>;
