/** Controls for tests and demos: reset, the clock, fault injection, settings, webhook destinations, deliveries. */
import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import { settingsPatchSchema } from '../settings.ts';
import type { SandboxState } from '../state.ts';
import { faultRuleSchema } from './faults.ts';

const clockSchema = z.object({
  /** Pin the clock: ISO time or epoch milliseconds. */
  now: z.union([z.iso.datetime({ offset: true }), z.number().int()]).optional(),
  /** Move the clock forward by this many milliseconds. */
  advanceMs: z.number().int().min(0).optional(),
  /** Back to real time. */
  reset: z.boolean().optional(),
});

const bad = (message: string) => ({ success: false, message });

/** A JSON body checked against `schema`, refused with a 400 in the controls' envelope. */
const jsonBody = <T extends z.ZodType>(schema: T) =>
  zValidator('json', schema, (r, c) => (r.success ? undefined : c.json(bad(r.error.message), 400)));

export function controls(state: SandboxState) {
  const clockView = () => ({ now: new Date(state.now()).toISOString(), pinned: state.clock.pinned });

  return new Hono()
    .post('/reset', (c) => {
      state.reset();
      return c.json({ success: true, data: { reset: true } });
    })
    .get('/clock', (c) => c.json({ success: true, data: clockView() }))
    .post('/clock', jsonBody(clockSchema), (c) => {
      const body = c.req.valid('json');
      if (body.reset) state.clock.reset();
      if (body.now !== undefined)
        state.clock.set(typeof body.now === 'number' ? body.now : Date.parse(body.now));
      if (body.advanceMs) state.clock.advance(body.advanceMs);
      return c.json({ success: true, data: clockView() });
    })
    .get('/faults', (c) => c.json({ success: true, data: state.faults }))
    .post('/faults', jsonBody(faultRuleSchema), (c) => {
      state.faults.push(c.req.valid('json'));
      return c.json({ success: true, data: state.faults });
    })
    .delete('/faults', (c) => {
      state.faults = [];
      return c.json({ success: true, data: [] });
    })
    .get('/settings', (c) => c.json({ success: true, data: state.settings }))
    .patch('/settings', jsonBody(settingsPatchSchema), (c) =>
      c.json({ success: true, data: state.updateSettings(c.req.valid('json')) }),
    )
    .put('/merchants/:id/webhook', jsonBody(z.object({ url: z.url() })), (c) => {
      const merchantId = c.req.param('id');
      const { url } = c.req.valid('json');
      state.webhookUrls.set(merchantId, url);
      return c.json({ success: true, data: { merchantId, url } });
    })
    .get('/deliveries', (c) => {
      const merchant = c.req.query('merchant');
      const kind = c.req.query('kind');
      const list = state.deliveries.filter(
        (d) => (!merchant || d.merchantId === merchant) && (!kind || d.kind === kind),
      );
      return c.json({ success: true, data: list });
    });
}
