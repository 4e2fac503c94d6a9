/** What `GET /api/catalog` answers: countries, currencies and a country's payment and payout methods. */
import { z } from 'zod';
import { countryCode } from '../schemas/codes.ts';

const termsSchema = z
  .object({
    currency: z.string(),
    fixedFee: z.string().describe("The method's fixed fee in `currency`"),
    min: z
      .string()
      .nullable()
      .describe('The least total a shopper can type in `currency`: buy, pay; sell, receive (fees inside)'),
    max: z.string().nullable().describe('The most total a shopper can type in `currency` (fees inside)'),
    converted: z
      .boolean()
      .describe('The figures were converted from EUR at a current rate: approximate (show them with ≈)'),
  })
  .meta({ id: 'MethodTerms' });

export const methodSchema = z
  .object({
    id: z.string().describe('Payment group (buy) or payout slug (sell): what quotes and ramp sessions take'),
    name: z.string(),
    feePercent: z.string(),
    fixedFee: z.string().describe('EUR'),
    min: z.string().nullable().describe('EUR'),
    max: z.string().nullable().describe('EUR'),
    limits: z.object({ currency: z.literal('EUR'), min: z.string().nullable(), max: z.string().nullable() }),
    terms: z
      .array(termsSchema)
      .describe('The fixed fee and limits in each currency the method takes that a rate is known for'),
    currencies: z.array(z.string()),
    icon: z.string().nullable(),
    iconLight: z.string().nullable(),
    isDefault: z.boolean(),
  })
  .meta({ id: 'Method' });
export type Method = z.infer<typeof methodSchema>;

const countrySchema = z
  .object({ code: z.string(), name: z.string(), currency: z.string() })
  .meta({ id: 'Country' });
const fiatSchema = z.object({ code: z.string(), name: z.string() }).meta({ id: 'Fiat' });
const cryptoSchema = z
  .object({
    code: z.string(),
    symbol: z.string(),
    name: z.string(),
    network: z.string(),
    networkName: z.string(),
    type: z.enum(['token', 'coin']),
    networkFee: z.string().describe('EUR'),
    icon: z.string().nullable(),
  })
  .meta({ id: 'Crypto' });
const chainSchema = z.object({ id: z.string(), name: z.string() }).meta({ id: 'Chain' });

export const catalogSchema = z
  .object({
    country: z.string(),
    countries: z.array(countrySchema),
    fiats: z.array(fiatSchema),
    cryptos: z.array(cryptoSchema),
    paymentMethods: z.array(methodSchema),
    payoutMethods: z.array(methodSchema),
    chains: z.array(chainSchema),
    defaults: z.object({
      country: z.string(),
      fiat: z.string(),
      crypto: z.string(),
      paymentMethod: z.string().nullable(),
      payoutMethod: z.string().nullable(),
    }),
  })
  .meta({ id: 'Catalog' });
export type Catalog = z.infer<typeof catalogSchema>;

export const catalogQuery = z.object({
  country: countryCode.optional().describe('ISO 3166 alpha-2; else taken from request headers'),
});
