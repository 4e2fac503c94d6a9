/** The two upstream envelopes: ramp `{success, data}` / `{success:false, message}`, payments `{data, message, success}`. */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export const rampOk = (c: Context, data: unknown) => c.json({ success: true, data });

export const rampFail = (c: Context, status: ContentfulStatusCode, message: string) =>
  c.json({ success: false, message }, status);

export const payOk = (c: Context, data: unknown, status: ContentfulStatusCode = 200) =>
  c.json({ data, message: 'success', success: true }, status);

export const payFail = (c: Context, status: ContentfulStatusCode, message: string) =>
  c.json({ data: null, message, success: false }, status);
