/** What `POST /api/quotes/buy` and `/sell` take and answer (the `Quote`). */
import { z } from 'zod';
import { positiveDecimal, refuseExcessDecimals } from '../money.ts';
import { countryCode, cryptoCode, currencyCode, methodId } from '../schemas/codes.ts';

const exactlyOneAmount = <T extends { fiatAmount?: string | undefined; cryptoAmount?: string | undefined }>(
  body: T,
  ctx: z.RefinementCtx,
) => {
  if ((body.fiatAmount === undefined) === (body.cryptoAmount === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: [body.fiatAmount === undefined ? 'fiatAmount' : 'cryptoAmount'],
      message: 'give exactly one of fiatAmount and cryptoAmount',
    });
  }
};

/** An amount with more decimals than its currency is refused with the reason, never rounded (issue 42 item 7). */
const amountsFitCurrencies = (
  body: { fiat: string; crypto: string; fiatAmount?: string | undefined; cryptoAmount?: string | undefined },
  ctx: z.RefinementCtx,
) => {
  refuseExcessDecimals(ctx, 'fiatAmount', body.fiatAmount, body.fiat, 'fiat');
  refuseExcessDecimals(ctx, 'cryptoAmount', body.cryptoAmount, body.crypto, 'crypto');
};

const quoteFields = {
  country: countryCode,
  fiat: currencyCode,
  crypto: cryptoCode,
  fiatAmount: positiveDecimal
    .optional()
    .describe(
      'What the shopper typed, in `fiat`, fees inside: buy, what they pay in total; sell, what they receive ' +
        '(a decimal string)',
    ),
  cryptoAmount: positiveDecimal.optional().describe('What the shopper typed, in `crypto` (a decimal string)'),
};

// z.object drops unknown keys: a client-sent `markup` or `price` never reaches the handler.
export const buyQuoteBody = z
  .object({ paymentMethod: methodId.describe('Payment group from the catalog'), ...quoteFields })
  .superRefine(exactlyOneAmount)
  .superRefine(amountsFitCurrencies)
  .meta({ id: 'BuyQuoteBody' });
export const sellQuoteBody = z
  .object({ payoutMethod: methodId.describe('Payout method id from the catalog'), ...quoteFields })
  .superRefine(exactlyOneAmount)
  .superRefine(amountsFitCurrencies)
  .meta({ id: 'SellQuoteBody' });

export const quoteSchema = z
  .object({
    side: z.enum(['buy', 'sell']),
    input: z.enum(['fiat', 'crypto']),
    estimate: z.boolean(),
    fiat: z.object({
      currency: z.string(),
      amount: z
        .string()
        .describe("What the ramp prices: buy, the amount before fees; sell, the crypto's value before fees"),
      total: z
        .string()
        .describe(
          'What the shopper pays (buy) or receives (sell), fees inside: the `fiatAmount` asked for (on a buy, ' +
            'a cent or two less where fee rounding steps over it); for a crypto amount, its true total',
        ),
    }),
    crypto: z.object({ currency: z.string(), amount: z.string() }),
    rate: z.string().describe('Price of 1 crypto unit in fiat'),
    fees: z.object({
      processing: z.string(),
      network: z.string(),
      markup: z.string(),
      total: z.string(),
      currency: z.string(),
    }),
    paymentMethod: z.string(),
    paymentGroup: z.string(),
    source: z
      .enum(['upstream', 'derived'])
      .describe(
        "`upstream`: the ramp priced this amount. `derived`: computed with the ramp's fee model from its latest " +
          'quote for the same method, country, fiat and crypto (the same price model; the ramp page quotes the ' +
          'final price).',
      ),
    pricedAt: z
      .string()
      .describe('When the ramp priced the quote (for a derived quote: the quote it came from)'),
    expiresAt: z.string(),
  })
  .meta({ id: 'Quote' });
export type Quote = z.infer<typeof quoteSchema>;
