import os from 'node:os';
import { RunnerPool } from '@fullstop/engine/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadEnv } from '../../config/env.ts';
import { engineConfig, runnerPoolSize } from './config.ts';

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

  it('keeps half a core and two workers for light tests, none in the API tests nor without a capacity (decision 0091)', () => {
    expect(configOf({ ENGINE_CAPACITY: '2' })).toMatchObject({ lightLane: 0.5, lightLaneWorkers: 2 });
    expect(configOf({ ENGINE_CAPACITY: '2', ENGINE_LIGHT_LANE: '1' })).toMatchObject({ lightLane: 1, lightLaneWorkers: 4 });
    expect(configOf({ ENGINE_CAPACITY: '2', ENGINE_LIGHT_LANE: '0' })).toMatchObject({ lightLane: 0, lightLaneWorkers: 0 });
    expect(configOf({ ENGINE_CAPACITY: '0', ENGINE_LIGHT_LANE: '1' })).toMatchObject({ lightLane: 0, lightLaneWorkers: 0 });
    expect(configOf({ NODE_ENV: 'test', ENGINE_CAPACITY: '2' })).toMatchObject({ lightLane: 0, lightLaneWorkers: 0 });
    for (const value of ['-0.5', 'some', '17']) expect(() => configOf({ ENGINE_LIGHT_LANE: value })).toThrow(/ENGINE_LIGHT_LANE/);
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
    // A pool is a comma-separated list (issue 37): each name checked the same way.
    expect(() => configOf({ ENGINE_RUNNER_USER: 'a,,b' })).toThrow(/ENGINE_RUNNER_USER: must be a user name, or several separated by commas/);
    expect(() => configOf({ ENGINE_RUNNER_USER: 'nobody,nobody' })).toThrow(/ENGINE_RUNNER_USER: names a user twice/);
    expect(() => configOf({ ENGINE_RUNNER_USER: 'nobody,no-such-user-fullstop' })).toThrow(/ENGINE_RUNNER_USER: there is no user "no-such-user-fullstop"/);
  });

  it('sizes a pool of runner users to the tests run at once, the warm pool’s runners and a crawl', () => {
    expect(runnerPoolSize(4, 1)).toBe(6);
    expect(runnerPoolSize(2, 2)).toBe(5);
    // The warm pool never holds more runners than there are workers.
    expect(runnerPoolSize(1, 2)).toBe(3);
    expect(runnerPoolSize(0, 1)).toBe(1);
    expect(runnerPoolSize(64, 2)).toBe(67);
  });

  // A root server never runs a client's code as root (issue 37). Outside tests (NODE_ENV=test keeps the server's own
  // user unless ENGINE_RUNNER_USER says otherwise), a root server without ENGINE_RUNNER_USER makes its own pool.
  describe.skipIf(process.geteuid?.() !== 0)('as root (CI is)', () => {
    // Outside tests a process with runner users closes its umask (0077): this file's is given back after.
    let umask = 0o022;
    beforeAll(() => {
      umask = process.umask(0o022);
      process.umask(umask);
    });
    afterAll(() => {
      process.umask(umask);
    });

    it('makes its own pool without ENGINE_RUNNER_USER, sized by the workers it really starts', () => {
      const config = configOf({ NODE_ENV: 'development', ENGINE_WORKERS: '3', ENGINE_WARM_RUNNERS: '1' });
      expect(config.runAs).toBeInstanceOf(RunnerPool);
      expect((config.runAs as RunnerPool).automatic).toBe(true);
      // 3 workers, the light lane's 2 (decision 0091), the warm runner, a crawl.
      expect((config.runAs as RunnerPool).size).toBe(7);
      expect(config.runnerUser).toBeNull();
      // `fullstop worker --concurrency 8`.
      expect((engineConfig(loadEnv({ NODE_ENV: 'development' }), { workers: 8 }).runAs as RunnerPool).size).toBe(12);
      expect((engineConfig(loadEnv({ NODE_ENV: 'development', ENGINE_LIGHT_LANE: '0' }), { workers: 8 }).runAs as RunnerPool).size).toBe(10);
      // Under NODE_ENV=test: the server's own user, as the API tests expect.
      expect(configOf({ NODE_ENV: 'test', ENGINE_WORKERS: '2' }).runAs).toBeNull();
    });

    it('takes several names as a pool and one as a user shared by every test', () => {
      const pool = configOf({ ENGINE_RUNNER_USER: 'nobody, daemon', ENGINE_WORKERS: '2' });
      expect(pool.runAs).toBeInstanceOf(RunnerPool);
      expect((pool.runAs as RunnerPool).automatic).toBe(false);
      expect(pool.runnerUser).toBeNull();
      const shared = configOf({ ENGINE_RUNNER_USER: 'nobody' });
      expect(shared.runAs).toMatchObject({ name: 'nobody', uid: 65534 });
      expect(shared.runnerUser).toBe(shared.runAs);
      // Root is refused in a list as alone.
      expect(() => configOf({ ENGINE_RUNNER_USER: 'nobody,root' })).toThrow(/ENGINE_RUNNER_USER: "root" is root/);
    });
  });
});
