/** A request that fails its route's schema, as the envelope's 422 VALIDATION_FAILED with the field issues. */
import type { z } from 'zod';
import { AppError, type FieldIssue } from '../errors.ts';

/** Zod issues as the envelope's `issues`: a dotted path (`customer.email`, `body` at the root) and a message. */
export function fieldIssues(error: z.core.$ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.map(String).join('.') : 'body',
    message: issue.message,
  }));
}

export function validationError(error: z.core.$ZodError): AppError {
  const issues = fieldIssues(error);
  const message = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  return new AppError('VALIDATION_FAILED', message || 'The request is invalid.', { issues });
}
