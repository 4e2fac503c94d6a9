/** How the payments side words a failure and which status it gets, for the API and the order controls alike. */
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { LedgerError } from './ledger.ts';
import { TransitionError } from './transition.ts';

/** A positive or zero decimal written plainly (`0`, `19.99`), the form prices and amounts take. */
export const DECIMAL = /^(?:0|[1-9]\d*)(?:\.(\d+))?$/;

/** zod issues as one readable line: `purchase.price: Invalid input: expected string, received undefined`. */
export function issuesMessage(error: {
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>;
}): string {
  return error.issues
    .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/** A thrown error as the status and message to answer: 404/409/422 from the ledger, 409 for a refused move. */
export function failureOf(error: unknown): { status: ContentfulStatusCode; message: string } {
  if (error instanceof LedgerError) return { status: error.status, message: error.message };
  if (error instanceof TransitionError) return { status: 409, message: error.message };
  if (error instanceof HTTPException) return { status: error.status, message: error.message };
  return { status: 500, message: 'Internal server error' };
}
