/**
 * axe-core run inside a page of any engine: its source is sent as the evaluated function's own text (the drivers
 * and Playwright evaluate a function by its text), so no `eval` runs in the page and its CSP stays as served.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from './driver/api.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** A function whose text is axe's source and a run of it: the serious and critical violations of the page. */
const runAxe = Object.assign(async () => [] as AxeViolation[], {
  toString: () => `async () => {
    ${axeSource}
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  }`,
});

/** The serious and critical accessibility violations axe finds in `page` as it is now. */
export function seriousViolations(page: Page): Promise<AxeViolation[]> {
  return page.evaluate(runAxe);
}
