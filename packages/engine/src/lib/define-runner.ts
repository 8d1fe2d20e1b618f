import type { z } from 'zod';
import { ValidationError } from '../errors.ts';
import { createTargetGuard, type TargetGuard } from '../policy/target-guard.ts';
import type { RunContext, Runner, RunnerResult, RunTarget, TestDefinition, TestKind } from '../types.ts';
import { parseTestInput } from './options.ts';
import { emptySummary, errorMessage, NO_TOTALS } from './result.ts';

type Outcome = Omit<RunnerResult, 'durationMs'> & { durationMs?: number };

interface RunnerSpec<S extends z.ZodType> {
  kind: TestKind;
  /** Validates `{ options, thresholds }` of a test definition. */
  schema: S;
  execute(input: z.output<S>, env: { test: TestDefinition; target: RunTarget; ctx: RunContext; guard: TargetGuard }): Promise<Outcome>;
}

/**
 * Builds a Runner from its schema and body. Every failure to run (bad options, a refused URL, a crash, an abort)
 * comes back as status `error` with the reason and its code, never as a thrown error, so the queue records it.
 */
export function defineRunner<S extends z.ZodType>(spec: RunnerSpec<S>): Runner & { schema: S } {
  return {
    kind: spec.kind,
    schema: spec.schema,
    validate(test) {
      parseTestInput(spec.schema, test);
    },
    async run(test, target, ctx) {
      const started = performance.now();
      try {
        if (test.kind !== spec.kind) {
          throw new ValidationError({ field: 'kind', reason: `expected ${spec.kind}, got ${test.kind}` });
        }
        const input = parseTestInput(spec.schema, test);
        const guard = createTargetGuard(target, ctx.network);
        const outcome = await spec.execute(input, { test, target, ctx, guard });
        return { ...outcome, durationMs: outcome.durationMs ?? performance.now() - started };
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        ctx.log(`${spec.kind} run error`, { error: errorMessage(error) });
        return {
          status: 'error',
          totals: NO_TOTALS,
          durationMs: performance.now() - started,
          summary: emptySummary(spec.kind),
          artifacts: [],
          error: errorMessage(error),
          ...(typeof code === 'string' ? { errorCode: code } : {}),
        };
      }
    },
  };
}
