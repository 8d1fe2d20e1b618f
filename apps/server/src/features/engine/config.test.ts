import { describe, expect, it } from 'vitest';
import { ConfigError, loadEnv } from '../../config/env.ts';
import { engineConfig } from './config.ts';

const configOf = (source: NodeJS.ProcessEnv) => engineConfig(loadEnv(source));

describe('engine configuration', () => {
  it('limits each attempt to 2048 MB unless told otherwise', () => {
    expect(configOf({}).runMemoryMb).toBe(2048);
    expect(configOf({ ENGINE_RUN_MEMORY_MB: '512' }).runMemoryMb).toBe(512);
  });

  it('names the variable that is wrong', () => {
    for (const value of ['64', 'lots', '1.5']) {
      expect(() => configOf({ ENGINE_RUN_MEMORY_MB: value })).toThrow(ConfigError);
      expect(() => configOf({ ENGINE_RUN_MEMORY_MB: value })).toThrow(/ENGINE_RUN_MEMORY_MB/);
    }
    expect(() => configOf({ ENGINE_RUNNERS_MODULE: 'relative/runners.ts' })).toThrow(/ENGINE_RUNNERS_MODULE: must be an absolute path/);
    expect(configOf({ ENGINE_RUNNERS_MODULE: '/abs/runners.ts' }).runnersModule).toBe('/abs/runners.ts');
  });
});
