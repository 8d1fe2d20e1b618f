import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadEnv } from '../../config/env.ts';
import { engineConfig } from './config.ts';

const configOf = (source: NodeJS.ProcessEnv) => engineConfig(loadEnv(source));

describe('engine configuration', () => {
  it('limits each attempt to 2048 MB unless told otherwise', () => {
    expect(configOf({}).runMemoryMb).toBe(2048);
    expect(configOf({ ENGINE_RUN_MEMORY_MB: '512' }).runMemoryMb).toBe(512);
  });

  it('runs the cores’ worth of tests at once, with one Playwright worker per 2 cores of capacity', () => {
    expect(configOf({}).capacity).toBe(os.availableParallelism());
    expect(configOf({ ENGINE_CAPACITY: '2' })).toMatchObject({ capacity: 2, browserWorkers: 1 });
    expect(configOf({ ENGINE_CAPACITY: '1.5' })).toMatchObject({ capacity: 1.5, browserWorkers: 1 });
    expect(configOf({ ENGINE_CAPACITY: '8' })).toMatchObject({ capacity: 8, browserWorkers: 4 });
    expect(configOf({ ENGINE_CAPACITY: '64' }).browserWorkers).toBe(4);
    // No capacity: the workers alone limit what runs, and a browser test keeps its two Playwright workers.
    expect(configOf({ ENGINE_CAPACITY: '0' })).toMatchObject({ capacity: 0, browserWorkers: 2 });
    expect(configOf({ ENGINE_CAPACITY: '2', ENGINE_BROWSER_WORKERS: '3' }).browserWorkers).toBe(3);
    expect(() => configOf({ ENGINE_CAPACITY: '-1' })).toThrow(/ENGINE_CAPACITY/);
  });

  it('names the variable that is wrong', () => {
    for (const value of ['64', 'lots', '1.5']) {
      expect(() => configOf({ ENGINE_RUN_MEMORY_MB: value })).toThrow(ConfigError);
      expect(() => configOf({ ENGINE_RUN_MEMORY_MB: value })).toThrow(/ENGINE_RUN_MEMORY_MB/);
    }
    expect(() => configOf({ ENGINE_RUNNERS_MODULE: 'relative/runners.ts' })).toThrow(/ENGINE_RUNNERS_MODULE: must be an absolute path/);
    expect(configOf({ ENGINE_RUNNERS_MODULE: '/abs/runners.ts' }).runnersModule).toBe('/abs/runners.ts');
    // The runner user is checked at start (decision 0077): a missing user stops the process, naming the setting.
    expect(() => configOf({ ENGINE_RUNNER_USER: 'no-such-user-fullstop' })).toThrow(/ENGINE_RUNNER_USER: there is no user "no-such-user-fullstop"/);
    expect(() => configOf({ ENGINE_RUNNER_USER: 'not a name' })).toThrow(/ENGINE_RUNNER_USER: must be a user name/);
    expect(configOf({}).runnerUser).toBeNull();
  });
});
