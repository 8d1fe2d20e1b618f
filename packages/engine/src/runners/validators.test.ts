import { describe, expect, it } from 'vitest';
import { TEST_KINDS } from '../types.ts';
import { runners } from './index.ts';
import { KIND_SCHEMAS, validators } from './validators.ts';

describe('validators', () => {
  it('check each kind with the schema its runner parses with', () => {
    for (const kind of TEST_KINDS) {
      expect(KIND_SCHEMAS[kind], kind).toBe((runners[kind] as unknown as { schema: unknown }).schema);
      expect(validators[kind].kind).toBe(kind);
    }
  });

  it('throw the ValidationError the runner throws, naming the field', () => {
    const test = { name: 't', group: 'g', kind: 'api' as const, options: { requests: 'not a list' } };
    const fromRunner = (() => {
      try {
        runners.api.validate(test);
      } catch (err) {
        return err;
      }
    })();
    expect(fromRunner).toBeInstanceOf(Error);
    expect(() => validators.api.validate(test)).toThrow(fromRunner as Error);
    expect(() => validators.api.validate({ ...test, options: { requests: [{ path: '/' }] } })).not.toThrow();
  });
});
