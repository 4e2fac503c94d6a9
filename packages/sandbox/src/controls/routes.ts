/**
 * Controls for tests and demos (`/control`): reset, the clock, what is pending, fault injection, settings, webhook
 * destinations and deliveries. Unauthenticated, never faulted or rate-limited.
 */
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
  const iso = (ms: number) => new Date(ms).toISOString();
  /** What is still to happen: answers held on the sandbox clock, and retries or follow-ups due in real time. */
  const pendingView = () => ({
    onSandboxClock: state.clock.waiting().map(({ what, until }) => ({ what, until: iso(until) })),
    inRealTime: state.background.pending().map(({ what, due }) => ({ what, due: iso(due) })),
  });

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
    .get('/pending', (c) => c.json({ success: true, data: pendingView() }))
    .get('/faults', (c) => c.json({ success: true, data: state.faults.list() }))
    .post('/faults', jsonBody(faultRuleSchema), (c) =>
      c.json({ success: true, data: state.faults.add(c.req.valid('json')) }),
    )
    .delete('/faults', (c) => {
      state.faults.clear();
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
      const list = state.deliveries.list({ merchantId: c.req.query('merchant'), kind: c.req.query('kind') });
      return c.json({ success: true, data: list });
    });
}
