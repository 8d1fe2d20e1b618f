// The runs feature's face: what other features may use of it. Everything else in this folder is its own.
export { endStaleAttempt, runningAttempts } from './attempt-repository.ts';
export { EngineBus } from './events.ts';
export { executeJob, sandboxRun, sandboxTools } from './execute-job.ts';
export { finishRunTest } from './finish.ts';
export { RESULT_STATUSES, isResult, isTerminal, runEventOf, runTestOutcomeOf, testEventOf } from './mappers.ts';
export { planRunTests, queueRun, runScopeText, testsOfScope, type RunScope } from './queue-runs.ts';
export { manualSettingsOf, manualWaitingOf, planManualWork } from './manual-work-repository.ts';
export { operatorRunOrigin } from './run-origin.ts';
export type { RunOrigin } from './run-origin.ts';
export { findClientRun, findClientRunTest, findClientRunTestById, finishedOfKindInRun, getRunTest, latestFinishedOfKind, markRunRunning, runStatusOf, runTestsOf, updateRunTest } from './run-repository.ts';
export type { RunRow, RunTestRow } from './run-repository.ts';
export { reapStaleAttempts } from './reaper.ts';
