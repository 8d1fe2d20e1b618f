import { defineRunner } from '../../lib/define-runner.ts';
import { facts } from './facts.ts';
import { manualInput } from './options.ts';

class ExecutedByATesterError extends Error {
  readonly code = 'executed_by_a_tester';
}

/**
 * A manual case is executed by a tester, never by a runner: the server keeps it out of the job queue and puts it in
 * the operators' Manual work queue (docs/manual-testing.md). A runner asked to run one says so.
 */
export const manualRunner = defineRunner({
  facts,
  schema: manualInput,
  async execute() {
    throw new ExecutedByATesterError('a manual test case is executed by a tester from the Manual work queue, not by a runner');
  },
});

export { manualRunner as runner };
