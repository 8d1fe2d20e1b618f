// The queue feature's face: what other features may use of it. Everything else in this folder is its own.
export { LOAD_QUEUE, RUN_QUEUE, ensureQueue, pgliteBossDb, startBoss } from './boss.ts';
export type { LoadGeneratorJobData, RunJobData } from './boss.ts';
export type { RunJob } from './job-repository.ts';
export { drizzleBossDb } from './job-repository.ts';
export { attemptCores, Capacity, lightLaneWorkers } from './capacity.ts';
export { fetchFairJob } from './job-repository.ts';
export { activeJobIds } from './job-repository.ts';
export { cancelWaitingJobs } from './waiting-repository.ts';
export { queuePlacesOf, waitingLine } from './waiting-line.ts';
export type { WaitingTest } from './waiting-line.ts';
