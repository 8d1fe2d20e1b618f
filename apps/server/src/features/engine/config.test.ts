import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/env.ts';
import { loadEngineConfig } from './config.ts';

describe('engine configuration', () => {
  it('limits each attempt to 2048 MB unless told otherwise', () => {
    expect(loadEngineConfig({}, 'production').runMemoryMb).toBe(2048);
    expect(loadEngineConfig({ ENGINE_RUN_MEMORY_MB: '512' }, 'production').runMemoryMb).toBe(512);
  });

  it('names the variable that is wrong', () => {
    for (const value of ['64', 'lots', '1.5']) {
      expect(() => loadEngineConfig({ ENGINE_RUN_MEMORY_MB: value }, 'production')).toThrow(ConfigError);
      expect(() => loadEngineConfig({ ENGINE_RUN_MEMORY_MB: value }, 'production')).toThrow(/ENGINE_RUN_MEMORY_MB/);
    }
    expect(() => loadEngineConfig({ ENGINE_RUNNERS_MODULE: 'relative/runners.ts' }, 'production')).toThrow(/ENGINE_RUNNERS_MODULE: must be an absolute path/);
    expect(loadEngineConfig({ ENGINE_RUNNERS_MODULE: '/abs/runners.ts' }, 'production').runnersModule).toBe('/abs/runners.ts');
  });
});
