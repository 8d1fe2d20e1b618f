import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.ts';
import { kinds } from '../runners/kinds.ts';
import type { Runner } from '../types.ts';
import { SuiteValidationError } from './suite-errors.ts';
import { normaliseSuitePath } from './suite-files.ts';
import { testsOf, validateSuite } from './validate-suite.ts';

const api: Runner = {
  kind: 'api',
  facts: kinds.api,
  validate(test) {
    if (!Array.isArray(test.options.requests)) throw new ValidationError({ field: 'options.requests', reason: 'required' });
  },
  run: () => Promise.reject(new Error('not run here')),
};

const files = (manifest: unknown, extra: Record<string, string> = {}) =>
  new Map(Object.entries({ 'suite.json': JSON.stringify(manifest), ...extra }).map(([k, v]) => [k, Buffer.from(v)]));

describe('validateSuite', () => {
  it('refuses a test named like the run report, in any case', () => {
    const suite = files({ version: 1, groups: [{ name: 'G', tests: [{ name: 'Run ALL tests', kind: 'api', options: { requests: [] } }] }] });
    expect(() => validateSuite(suite, { api })).toThrow(SuiteValidationError);
    try {
      validateSuite(suite, { api });
    } catch (err) {
      expect((err as SuiteValidationError).issues).toEqual([
        { file: 'suite.json', field: 'groups.0.tests.0.name', reason: '"Run all tests" is reserved: it names the report of a whole run on the Reports page' },
      ]);
    }
  });

  it('turns a manifest into test definitions in order', () => {
    const { tests } = validateSuite(
      files({ version: 1, groups: [{ name: 'API', tests: [{ name: 'health', kind: 'api', options: { requests: [] }, timeoutSeconds: 5 }] }] }),
      { api },
    );
    expect(tests).toEqual([{ name: 'health', group: 'API', kind: 'api', options: { requests: [] } }]);
  });

  it('collects every issue with its file, field and reason', () => {
    const run = () =>
      validateSuite(
        files({ version: 1, groups: [{ name: 'G', tests: [{ name: 'a', kind: 'api' }, { name: 'A', kind: 'api', options: { requests: [] } }] }] }),
        { api },
      );
    expect(run).toThrow(SuiteValidationError);
    try {
      run();
    } catch (err) {
      expect((err as SuiteValidationError).issues).toEqual([
        { file: 'suite.json', field: 'groups.0.tests.0.options.requests', reason: 'required' },
        { file: 'suite.json', field: 'groups.0.tests.1.name', reason: 'test name "A" is already used at groups.0.tests.0; names are unique per client' },
      ]);
    }
  });

  it('names the field of a bad manifest shape', () => {
    try {
      validateSuite(files({ version: 2, groups: [] }), {});
      expect.unreachable();
    } catch (err) {
      expect((err as SuiteValidationError).issues.map((i) => i.field)).toEqual(['version', 'groups']);
    }
  });

  it('keeps the overrides the queue needs', () => {
    const manifest = { version: 1 as const, groups: [{ name: 'G', tests: [{ name: 't', kind: 'load' as const, options: {}, timeoutSeconds: 9, retries: 0 }] }] };
    expect(testsOf(manifest, '/s')[0]).toMatchObject({ suiteDir: '/s', timeoutSeconds: 9, retries: 0 });
  });
});

describe('normaliseSuitePath', () => {
  it('accepts plain relative paths and refuses escapes and hidden files', () => {
    expect(normaliseSuitePath('./specs/a.spec.ts')).toBe('specs/a.spec.ts');
    expect(normaliseSuitePath('specs\\a.ts')).toBe('specs/a.ts');
    for (const bad of ['../x', '/etc/passwd', 'a/../../b', '.git/config', 'a//b', '']) expect(normaliseSuitePath(bad)).toBeNull();
  });
});
