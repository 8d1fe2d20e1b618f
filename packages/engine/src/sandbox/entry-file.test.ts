import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRY_FILES, entryFile } from './entry-file.ts';

describe('entryFile', () => {
  it('answers each entry as its TypeScript source when run from the source', () => {
    for (const name of Object.keys(ENTRY_FILES) as (keyof typeof ENTRY_FILES)[]) {
      const file = entryFile(name);
      expect(path.isAbsolute(file)).toBe(true);
      expect(file.endsWith(`${ENTRY_FILES[name]}.ts`), file).toBe(true);
      expect(existsSync(file), file).toBe(true);
    }
  });
});
