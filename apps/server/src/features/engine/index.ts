// The engine feature's face: what other features may use of it. Everything else in this folder is its own.
export { engineConfig } from './config.ts';
export type { EngineConfig } from './config.ts';
export type { EngineDeps } from './deps.ts';
export { runnerIsolation } from './isolation.ts';
