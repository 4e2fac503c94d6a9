export { type CreateSandboxOptions, createSandbox, type SandboxApp } from './app.ts';
export type { Clock } from './clock.ts';
export { hmacBase64 } from './keys.ts';
export type { SandboxSettings } from './settings.ts';
export { type SandboxOptions, SandboxState } from './state.ts';
