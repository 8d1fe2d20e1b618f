// The targets feature's face: what other features may use of it. Everything else in this folder is its own.
export { runTargetFor } from './run-target.ts';
export { listTargetOrigins } from './target-origin-repository.ts';
