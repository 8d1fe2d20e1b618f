import { z } from 'zod';
import { ValidationError } from '../errors.ts';
import type { TestDefinition } from '../types.ts';

/**
 * Parses a test's options (and thresholds) with a runner's schema; the first issue becomes a ValidationError naming
 * the field as the manifest spells it (`options.pages.0`), so an operator knows exactly what to fix.
 */
export function parseTestInput<S extends z.ZodType>(schema: S, test: TestDefinition): z.output<S> {
  const input = { options: test.options ?? {}, thresholds: test.thresholds ?? {} };
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'options';
  throw new ValidationError({ field, reason: issue?.message ?? 'invalid value' });
}

/** What a runner parses (see parseTestInput): its options, where an unknown one is an error, and its thresholds. */
export function testInput<O extends z.ZodRawShape, T extends z.ZodType>(options: O, thresholds: T) {
  return z.object({ options: z.object(options).strict(), thresholds });
}
