// Types of scripts/browsers.mjs for the end-to-end tests (test/driver/).
import type { Browser as PuppeteerBrowser } from 'puppeteer-core';
import type { Browser as WdioBrowser } from 'webdriverio';

export const engines: readonly ['chromium', 'firefox', 'webkit'];
export function chromiumPath(): string;
export const chromiumFlags: string[];
export function launchFirefox(): Promise<PuppeteerBrowser>;
export function startWebKit(): Promise<{
  display: string;
  newSession(): Promise<{ browser: WdioBrowser; close(politely?: boolean): Promise<void> }>;
  stop(): Promise<void>;
}>;
export interface Keyboard {
  press(combo: string): Promise<void>;
  type(text: string): Promise<void>;
  down(key: string): Promise<void>;
  up(key: string): Promise<void>;
}
export function webdriverKeyboard(browser: WdioBrowser): Keyboard;
export function webdriverMouse(browser: WdioBrowser): {
  click(x: number, y: number, options?: { button?: 'left' | 'middle' | 'right' }): Promise<void>;
  move(x: number, y: number): Promise<void>;
};
