import type { Command } from 'commander';

/** Operator commands of the engine: suite import, run, worker. */
export function registerEngineCommands(_program: Command): void {}
