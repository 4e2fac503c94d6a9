/**
 * What the admin routes share: their OpenAPI tag and security, the errors any of them may answer, and the
 * parameters they read alike (dates as ISO or epoch, bounded integers, opaque cursors).
 */
import { z } from 'zod';
import { errorResponses, securedBy } from '../../openapi.ts';

/** What every merchant route is described with. */
export const adminRoute = { tags: ['Merchant'], security: securedBy('admin') };

/** What every merchant route may answer besides its own. */
export const adminErrors = () =>
  errorResponses('UNAUTHORIZED', 'VALIDATION_FAILED', 'UPSTREAM_ERROR', 'UPSTREAM_TIMEOUT');

/** ISO date(-time) or epoch (seconds below 10^11, else milliseconds) → epoch milliseconds. */
export const dateParam = z
  .string()
  .trim()
  .transform((value, ctx) => {
    if (/^\d+$/.test(value)) {
      const n = Number(value);
      return n < 1e11 ? n * 1000 : n;
    }
    const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
    const ms = iso.test(value) ? Date.parse(value) : Number.NaN;
    if (Number.isNaN(ms)) {
      ctx.addIssue({ code: 'custom', message: 'must be an ISO date or epoch seconds/milliseconds' });
      return z.NEVER;
    }
    return ms;
  });

export const intParam = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .default(fallback);
