import { Hono } from 'hono';
import type { SandboxState } from './state.ts';

// Placeholder until written.
export function payApi(_state: SandboxState) {
  return new Hono();
}

export function orderControls(_state: SandboxState) {
  return new Hono();
}
