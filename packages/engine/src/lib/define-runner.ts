import type { z } from 'zod';
import { ValidationError } from '../errors.ts';
import { createTargetGuard, type TargetGuard } from '../policy/target-guard.ts';
import type { KindFacts, RunContext, Runner, RunnerResult, RunTarget, TestDefinition, TestKind } from '../types.ts';
import { engineErrorOf, missingEngine } from './engines.ts';
import { attachLogin } from './login-session.ts';
import { parseTestInput } from './options.ts';
import { errorMessage, NO_TOTALS } from './result.ts';

type Outcome = Omit<RunnerResult, 'durationMs'> & { durationMs?: number };

interface RunnerSpec<K extends TestKind, S extends z.ZodType> {
  /** The kind's facts, from its folder's `facts.ts` (the server reads them there without loading the runner). */
  facts: KindFacts<K>;
  /** Validates `{ options, thresholds }` of a test definition. */
  schema: S;
  execute(input: z.output<S>, env: { test: TestDefinition; target: RunTarget; ctx: RunContext; guard: TargetGuard }): Promise<Outcome>;
}

/**
 * Builds a Runner from its schema and body. Every failure to run (bad options, a missing engine, a refused URL, a
 * crash, an abort) comes back as status `error` with the reason and its code, never as a thrown error, so the queue records it.
 */
export function defineRunner<K extends TestKind, S extends z.ZodType>(spec: RunnerSpec<K, S>): Runner & { schema: S } {
  const { kind } = spec.facts;
  return {
    kind,
    facts: spec.facts,
    schema: spec.schema,
    validate(test) {
      parseTestInput(spec.schema, test);
    },
    async run(test, target, ctx) {
      const started = performance.now();
      try {
        if (test.kind !== kind) {
          throw new ValidationError({ field: 'kind', reason: `expected ${kind}, got ${test.kind}` });
        }
        const input = parseTestInput(spec.schema, test);
        // A program or package the run needs that is not there ends it here, saying what to install.
        const missing = missingEngine(kind, test.options, ctx);
        if (missing) throw missing;
        const guard = createTargetGuard(target, ctx.network);
        // Every guarded request and browser context of this run carries the attempt's login (decision 0060).
        attachLogin(guard, ctx.login);
        const outcome = await spec.execute(input, { test, target, ctx, guard });
        return { ...outcome, durationMs: outcome.durationMs ?? performance.now() - started };
      } catch (thrown) {
        // A program of the kind that would not start (spawn ENOENT) is a missing engine too, said in words.
        const error = engineErrorOf(kind, thrown, ctx) ?? thrown;
        const code = (error as { code?: unknown }).code;
        ctx.log(`${kind} run error`, { error: errorMessage(error) });
        return {
          status: 'error',
          totals: NO_TOTALS,
          durationMs: performance.now() - started,
          summary: spec.facts.emptySummary(),
          artifacts: [],
          error: errorMessage(error),
          ...(typeof code === 'string' ? { errorCode: code } : {}),
        };
      }
    },
  };
}
