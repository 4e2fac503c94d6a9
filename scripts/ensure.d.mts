// Types of ensure.mjs (plain Node, so that it runs before anything is installed).
export const root: string;
export function ensureDeps(): void;
export function ensureChromium(): string;
export function ensureWidgetBuilt(options?: { force?: boolean }): void;
export function ensurePackagesBuilt(options?: { force?: boolean }): void;
export function ensureDemoBuilt(options?: { force?: boolean }): void;
