import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSuiteFolder } from '../../suite/suite-files.ts';
import { validateSuite } from '../../suite/validate-suite.ts';
import { manualInput } from './options.ts';
import { wcagOf } from './result.ts';

const SUITE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../suites/manual');

describe('the example suite of manual cases', () => {
  it('validates, and its accessibility audit covers the WCAG criteria axe cannot judge', async () => {
    const { tests } = validateSuite(await readSuiteFolder(SUITE));
    expect(tests.map((t) => t.kind)).toEqual(['manual', 'manual']);
    const audit = manualInput.parse({ options: tests[1]!.options, thresholds: {} }).options;
    expect(wcagOf(audit)).toEqual(expect.arrayContaining(['2.1.1', '2.4.3', '2.4.7', '1.4.10', '1.4.11', '4.1.3']));
  });

  it('refuses a case that names a reference the suite does not hold', () => {
    const manifest = JSON.stringify({ version: 1, groups: [{ name: 'G', tests: [{ name: 'T', kind: 'manual', options: { goal: 'g', steps: [{ action: 'a', expected: 'e' }], references: ['designs/cart.png'] } }] }] });
    expect(() => validateSuite(new Map([['suite.json', Buffer.from(manifest)]]))).toThrow(/designs\/cart\.png/);
  });
});
