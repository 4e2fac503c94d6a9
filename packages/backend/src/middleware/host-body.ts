/**
 * A request body the host app already read. Mounted in Express (or any Node framework) behind a body parser such
 * as `app.use(express.json())`, the request reaches us with its stream drained: what is left to read is nothing,
 * and every POST would fail as malformed JSON, a webhook's signature with it. `@hono/node-server` reads the exact
 * bytes from `req.rawBody` when the host kept them (a Buffer), so that works as is; without them the request is
 * refused with the cause and the two fixes. A parsed `req.body` is never turned back into bytes: the upstream
 * signs the bytes it sent, and `JSON.stringify` of what a parser made of them is not those bytes.
 */
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../errors.ts';
import { logger } from '../logger.ts';

/** What `@hono/node-server` passes as the app's env: the Node request it was given. */
interface NodeIncoming {
  readableEnded?: boolean;
  /** Set by body-parser (Express's `express.json()`, `express.urlencoded()`, …) once it has read the body. */
  _body?: boolean;
  rawBody?: unknown;
}

export const hostConsumedBodyMessage =
  'The app this checkout is mounted in read the request body before it (a body parser such as ' +
  'express.json() runs ahead of the mount), so the exact bytes are gone. Mount the checkout before the body ' +
  'parser (app.use("/checkout", …) above app.use(express.json())), or keep the raw bytes: ' +
  'express.json({ verify: (req, _res, buf) => { req.rawBody = buf; } }).';

let warned = false;

/** Refuses a request whose body the host consumed without keeping it (`req.rawBody`); the rest pass untouched. */
export const hostBodyGuard: MiddlewareHandler = async (c, next) => {
  const incoming = (c.env as { incoming?: NodeIncoming } | undefined)?.incoming;
  if (!incoming || c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') {
    return next();
  }
  if (incoming.rawBody instanceof Buffer || !(incoming.readableEnded || incoming._body === true))
    return next();
  if (!warned) {
    warned = true;
    logger.error(`[checkout] ${hostConsumedBodyMessage}`);
  }
  throw new AppError('BODY_ALREADY_READ', hostConsumedBodyMessage);
};
