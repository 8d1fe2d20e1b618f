/**
 * What the runner and the healing hook in Playwright's workers share without zod (the workers load no schema library:
 * setup.ts's schemas are the runner's, which parses what the workers wrote).
 */

/** The environment variable naming the healing setup file: set for `playwright test`, read by its workers. */
export const HEALING_SETUP_ENV = 'FULLSTOP_HEALING';

/** A worker's file of records in the setup's `outDir`. */
export const workerRecordsFile = (workerIndex: string, pid: number) => `worker-${workerIndex.replace(/[^0-9]/g, '') || 'x'}-${pid}.jsonl`;
