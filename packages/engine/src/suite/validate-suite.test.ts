import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.ts';
import { kinds } from '../runners/kinds.ts';
import { BROWSER_ENGINES } from '../runners/browser/matrix.ts';
import { validators } from '../runners/validators.ts';
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

describe('a group’s matrix', () => {
  const issuesOf = (manifest: unknown): { field: string; reason: string }[] => {
    try {
      validateSuite(files(manifest));
      return [];
    } catch (err) {
      if (!(err instanceof SuiteValidationError)) throw err;
      expect(err.issues.every((i) => i.file === 'suite.json')).toBe(true);
      return err.issues.map(({ field, reason }) => ({ field, reason }));
    }
  };
  const load = { name: 'Home load', kind: 'load', options: { requests: [{ path: '/' }], durationSeconds: 4 } };

  it('applies to every browser and accessibility test of the group that does not set its own, and to nothing else', () => {
    const manifest = {
      version: 1 as const,
      groups: [
        {
          name: 'Frontend',
          engines: ['chromium', 'firefox'],
          devices: ['desktop', 'phone'],
          tests: [
            { name: 'Shop', kind: 'browser', options: {} },
            { name: 'Tablet shop', kind: 'browser', options: { devices: ['tablet'] } },
            { name: 'Pages', kind: 'accessibility', options: { pages: ['/'] } },
            load,
          ],
        },
        { name: 'Other', tests: [{ name: 'Plain', kind: 'browser', options: {} }] },
      ],
    };
    const { tests } = validateSuite(files(manifest), validators);
    const options = Object.fromEntries(tests.map((t) => [t.name, t.options]));
    expect(options).toEqual({
      Shop: { engines: ['chromium', 'firefox'], devices: ['desktop', 'phone'] },
      'Tablet shop': { engines: ['chromium', 'firefox'], devices: ['tablet'] },
      Pages: { pages: ['/'], engines: ['chromium', 'firefox'], devices: ['desktop', 'phone'] },
      'Home load': load.options,
      Plain: {},
    });
    // A run reads the same definitions.
    expect(testsOf(manifest as never).map((t) => t.options)).toEqual(tests.map((t) => t.options));
  });

  it('refuses a group matrix over 12 cells, naming the group', () => {
    expect(issuesOf({ version: 1, groups: [{ name: 'Frontend', engines: ['chromium', 'firefox'], devices: ['desktop', 'phone', 'tablet'], networks: ['none', 'slow-3g', 'fast-3g'], tests: [load] }] })).toEqual([
      { field: 'groups.0.networks', reason: 'group "Frontend": 2 engines × 3 devices × 3 networks make 18 cells; a test may have at most 12: split it in two tests' },
    ]);
    expect(issuesOf({ version: 1, groups: [{ name: 'Frontend', engines: ['opera'], tests: [load] }] })).toEqual([
      { field: 'groups.0.engines.0', reason: `unknown engine "opera": the engines are ${BROWSER_ENGINES.join(', ')}` },
    ]);
  });

  it('names the group and the test whose own options cannot run with the group’s matrix', () => {
    const issues = issuesOf({
      version: 1,
      groups: [
        {
          name: 'Frontend',
          devices: ['desktop', 'phone'],
          networks: ['none', 'slow-3g', 'fast-3g'],
          tests: [
            { name: 'Sized', kind: 'browser', options: { viewport: { width: 800, height: 600 } } },
            { name: 'Everywhere', kind: 'accessibility', options: { pages: ['/'], engines: ['chromium', 'firefox'], devices: ['desktop', 'phone', 'tablet'] } },
            load,
          ],
        },
      ],
    });
    expect(issues).toEqual([
      {
        field: 'groups.0.tests.0.options.viewport',
        reason: 'cannot run with devices phone: each device has its own viewport; drop viewport, or keep devices to desktop (group "Frontend" sets its devices and networks)',
      },
      {
        field: 'groups.0.networks',
        reason: 'group "Frontend" sets networks that test "Everywhere" cannot run with: 2 engines × 3 devices × 3 networks make 18 cells; a test may have at most 12: split it in two tests',
      },
    ]);
  });
});

describe('normaliseSuitePath', () => {
  it('accepts plain relative paths and refuses escapes and hidden files', () => {
    expect(normaliseSuitePath('./specs/a.spec.ts')).toBe('specs/a.spec.ts');
    expect(normaliseSuitePath('specs\\a.ts')).toBe('specs/a.ts');
    for (const bad of ['../x', '/etc/passwd', 'a/../../b', '.git/config', 'a//b', '']) expect(normaliseSuitePath(bad)).toBeNull();
  });
});
