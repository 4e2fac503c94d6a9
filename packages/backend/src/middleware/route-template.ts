/** The route template a request was answered by, for logs and metrics: bounded, never a raw path or an id. */
import type { Context } from 'hono';

/** Where the app is mounted, read before the request goes on (`/checkout` under `app.route('/checkout', …)`). */
export const mountOf = (c: Context) => c.req.routePath.replace(/\/?\*$/, '');

/**
 * The route template that answered (`/api/orders/:id`), below the mount; `unmatched` when no route did (a 404
 * answered past every route, at a middleware's wildcard). Read after the request has gone through.
 */
export function routeOf(c: Context, mount: string): string {
  const route = c.req.routePath.slice(mount.length) || '/';
  return route.endsWith('*') && c.res.status === 404 ? 'unmatched' : route;
}
