/** The codes a client sends (country, currency, crypto, method), checked and upper-cased at the edge. */
import { z } from 'zod';

export const countryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'must be a 2-letter country code')
  .transform((value) => value.toUpperCase());

export const currencyCode = z
  .string()
  .regex(/^[A-Za-z]{3}$/, 'must be a 3-letter currency code')
  .transform((value) => value.toUpperCase());

export const cryptoCode = z
  .string()
  .regex(/^[A-Za-z0-9_]{2,32}$/, 'must be a crypto code like USDC_BASE')
  .transform((value) => value.toUpperCase());

export const methodId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a method id like creditcard');
