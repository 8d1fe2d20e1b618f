// The flaky feature's face: what other features may use of it. Everything else in this folder is its own.
export { detectFlaky } from './flaky-detection.ts';
export { flakyFlagsOf, flakyFlagsOfClients } from './flaky-flags.ts';
export { earlierAttemptArtifacts, fetchEarlierAttempts, keepAttemptArtifacts } from './retry-evidence.ts';
