import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps.ts';

// Placeholder until written.
export function rampSessionRoutes(_deps: AppDeps) {
  return new Hono<AppEnv>();
}
