// The visual feature's face: what other features may use of it. Everything else in this folder is its own.
export { prepareBaselineDir, recordVisualCandidates, removeBaselineDir } from './engine-hooks.ts';
export { pendingCountsOfRuns } from './repository.ts';
