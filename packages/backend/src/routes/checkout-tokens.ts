import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps.ts';

// Placeholder until written.
export function checkoutTokenRoutes(_deps: AppDeps) {
  return new Hono<AppEnv>();
}
