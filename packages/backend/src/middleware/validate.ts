/** `validate(target, schema)`: `@hono/zod-validator` with failures leaving as 422 VALIDATION_FAILED + issues. */
import { zValidator } from '@hono/zod-validator';
import type { Env, MiddlewareHandler, ValidationTargets } from 'hono';
import type { InferInput } from 'hono/validator';
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

type In<S extends z.ZodType, T extends keyof ValidationTargets> = {
  [K in T]: [z.input<S>] extends [ValidationTargets[K]] ? z.input<S> : InferInput<z.input<S>, K>;
};

/**
 * Validates one part of the request (`json`, `query`, `param`, `header`, …) and types `c.req.valid(target)`.
 * A body that is not JSON stays Hono's 400 (BAD_REQUEST in the envelope); a wrong field is a 422.
 */
export function validate<T extends keyof ValidationTargets, S extends z.ZodType, E extends Env = Env>(
  target: T,
  schema: S,
): MiddlewareHandler<E, string, { in: In<S, T>; out: { [K in T]: z.output<S> } }> {
  return zValidator(target, schema, (result) => {
    if (!result.success) throw validationError(result.error);
  }) as unknown as MiddlewareHandler<E, string, { in: In<S, T>; out: { [K in T]: z.output<S> } }>;
}
