// The schedules feature's face: what other features may use of it. Everything else in this folder is its own.
export { startScheduler } from './scheduler.ts';
export type { Scheduler, SchedulerOptions } from './scheduler.ts';
