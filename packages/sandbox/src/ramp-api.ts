import { Hono } from 'hono';
import type { SandboxState } from './state.ts';

// Placeholder until written.
export function rampApi(_state: SandboxState) {
  return new Hono();
}
