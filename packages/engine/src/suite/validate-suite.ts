import { RUN_REPORT_NAME } from '@fullstop/contracts';
import { ValidationError } from '../errors.ts';
import { type KindValidator, validators } from '../runners/validators.ts';
import type { TestDefinition, TestKind } from '../types.ts';
import { withGroupMatrix } from './group-matrix.ts';
import { MANIFEST_FILE, type SuiteManifest, suiteManifest } from './manifest.ts';
import { type SuiteIssue, SuiteValidationError } from './suite-errors.ts';
import { checkLimits, normaliseSuitePath, type SuiteFiles } from './suite-files.ts';

/** Option keys through which a test names files of its own suite (Playwright spec files, fixtures, a manual case's references). */
const FILE_OPTION_KEYS = ['spec', 'specs', 'file', 'files', 'testFiles', 'references'];

export interface ValidatedSuite {
  manifest: SuiteManifest;
  tests: TestDefinition[];
}

/**
 * Checks a suite as a whole: the manifest's shape, unique test names, files it names, and each test's options
 * through its runner's own `validate()`. Every problem is collected, so one import shows everything to fix.
 */
export function validateSuite(
  files: SuiteFiles,
  registry: Partial<Record<TestKind, KindValidator>> = validators,
): ValidatedSuite {
  const issues: SuiteIssue[] = [];
  let total = 0;
  for (const [p, content] of files) {
    total += content.length;
    if (normaliseSuitePath(p) !== p) issues.push({ file: p, field: '(path)', reason: 'not a safe relative path' });
  }
  checkLimits(files.size, total);

  const raw = files.get(MANIFEST_FILE);
  if (!raw) throw new SuiteValidationError([{ file: MANIFEST_FILE, field: '(file)', reason: 'the suite has no manifest' }]);
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw new SuiteValidationError([
      { file: MANIFEST_FILE, field: '(json)', reason: `not valid JSON: ${(err as Error).message}` },
    ]);
  }
  const parsed = suiteManifest.safeParse(json);
  if (!parsed.success) {
    throw new SuiteValidationError(
      parsed.error.issues.map((i) => ({
        file: MANIFEST_FILE,
        field: i.path.length ? i.path.map(String).join('.') : '(root)',
        reason: i.message,
      })),
    );
  }
  const manifest = parsed.data;

  const tests: TestDefinition[] = [];
  const seenTests = new Map<string, string>();
  const seenGroups = new Set<string>();
  manifest.groups.forEach((group, gi) => {
    if (seenGroups.has(group.name)) {
      issues.push({ file: MANIFEST_FILE, field: `groups.${gi}.name`, reason: `group "${group.name}" appears twice` });
    }
    seenGroups.add(group.name);
    group.tests.forEach((t, ti) => {
      const at = `groups.${gi}.tests.${ti}`;
      const key = t.name.toLowerCase();
      if (key === 'all') {
        issues.push({ file: MANIFEST_FILE, field: `${at}.name`, reason: '"all" is reserved: GET /test/run/all runs every test' });
      }
      if (key === RUN_REPORT_NAME.toLowerCase()) {
        issues.push({
          file: MANIFEST_FILE,
          field: `${at}.name`,
          reason: `"${RUN_REPORT_NAME}" is reserved: it names the report of a whole run on the Reports page`,
        });
      }
      const first = seenTests.get(key);
      if (first) {
        issues.push({
          file: MANIFEST_FILE,
          field: `${at}.name`,
          reason: `test name "${t.name}" is already used at ${first}; names are unique per client`,
        });
      }
      seenTests.set(key, at);
      const { options, inherited } = withGroupMatrix(group, t);
      const def: TestDefinition = { name: t.name, group: group.name, kind: t.kind, options };
      if (t.thresholds) def.thresholds = t.thresholds;
      if (manifest.login && t.login !== false) def.login = manifest.login;
      for (const ref of fileReferences(t.options)) {
        if (!files.has(ref.path)) {
          issues.push({ file: MANIFEST_FILE, field: `${at}.options.${ref.field}`, reason: `file "${ref.path}" is not in the suite` });
        }
      }
      const runner = registry[t.kind];
      if (runner) {
        try {
          runner.validate(def);
        } catch (err) {
          if (err instanceof ValidationError && inherited.length > 0) {
            issues.push(groupMatrixIssue({ gi, at, group: group.name, test: t.name, inherited }, err));
          } else if (err instanceof ValidationError) {
            issues.push({ file: err.file ?? MANIFEST_FILE, field: `${at}.${err.field}`, reason: err.reason });
          } else {
            issues.push({ file: MANIFEST_FILE, field: at, reason: (err as Error).message });
          }
        }
      }
      tests.push(def);
    });
  });
  if (issues.length) throw new SuiteValidationError(issues);
  return { manifest, tests };
}

/**
 * A test's options refused with axes its group set (decision 0078): the issue names the group, the test and why. A
 * refusal of an axis the group set sits on the group's field; one of the test's own option, or of the cells'
 * bound, stays on the test's field and says the group set the rest.
 */
function groupMatrixIssue(p: { gi: number; at: string; group: string; test: string; inherited: readonly string[] }, err: ValidationError): SuiteIssue {
  const axis = p.inherited.find((a) => err.field === `options.${a}` || err.field.startsWith(`options.${a}.`));
  if (axis) return { file: MANIFEST_FILE, field: `groups.${p.gi}.${axis}`, reason: `group "${p.group}" sets ${axis} that test "${p.test}" cannot run with: ${err.reason}` };
  return { file: err.file ?? MANIFEST_FILE, field: `${p.at}.${err.field}`, reason: `${err.reason} (group "${p.group}" sets its ${p.inherited.join(' and ')})` };
}

/** The manifest's tests as runnable definitions, pointing at the stored folder of this suite version. */
export function testsOf(manifest: SuiteManifest, suiteDir?: string): (TestDefinition & { timeoutSeconds?: number; retries?: number })[] {
  return manifest.groups.flatMap((g) =>
    g.tests.map((t) => ({
      name: t.name,
      group: g.name,
      kind: t.kind,
      options: withGroupMatrix(g, t).options,
      ...(t.thresholds ? { thresholds: t.thresholds } : {}),
      ...(suiteDir ? { suiteDir } : {}),
      ...(t.timeoutSeconds ? { timeoutSeconds: t.timeoutSeconds } : {}),
      ...(t.retries !== undefined ? { retries: t.retries } : {}),
      ...(manifest.login && t.login !== false ? { login: manifest.login } : {}),
    })),
  );
}

function fileReferences(options: Record<string, unknown>): { field: string; path: string }[] {
  const refs: { field: string; path: string }[] = [];
  for (const key of FILE_OPTION_KEYS) {
    const v = options[key];
    const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : [];
    list.forEach((item, i) => {
      if (typeof item !== 'string' || /[*?[\]{}]/.test(item)) return; // globs are the runner's business
      const field = Array.isArray(v) ? `${key}.${i}` : key;
      refs.push({ field, path: item.replace(/^\.\//, '') });
    });
  }
  return refs;
}
