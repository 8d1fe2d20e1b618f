import type { z } from 'zod';
import { parseTestInput } from '../lib/options.ts';
import type { Runner, TestKind } from '../types.ts';
import { accessibilityInput } from './accessibility/options.ts';
import { apiInput } from './api/options.ts';
import { browserInput } from './browser/options.ts';
import { lighthouseInput } from './lighthouse/options.ts';
import { loadInput } from './load/options.ts';
import { manualInput } from './manual/options.ts';
import { mobileStaticInput } from './mobile-static/options.ts';
import { mobileUiInput } from './mobile-ui/options.ts';
import { paymentInput } from './payment/options.ts';
import { securityChecksInput } from './security-checks/options.ts';
import { securityScanInput } from './security-scan/options.ts';
import { visualInput } from './visual/options.ts';

/** What the API process needs of a kind: that it exists, and whether a test's options are valid for it. */
export type KindValidator = Pick<Runner, 'kind' | 'validate'>;

/**
 * Each kind's options schema, the one its runner parses with (validators.test.ts holds them equal). Only
 * options.ts files: the runners' code (Lighthouse, Playwright, axe, autocannon...) stays out of the processes that
 * validate suites and queue runs; runner processes load it, one kind each (sandbox/kind-runners.ts).
 */
export const KIND_SCHEMAS: { readonly [K in TestKind]: z.ZodType } = {
  accessibility: accessibilityInput,
  api: apiInput,
  browser: browserInput,
  lighthouse: lighthouseInput,
  load: loadInput,
  manual: manualInput,
  'mobile-static': mobileStaticInput,
  'mobile-ui': mobileUiInput,
  payment: paymentInput,
  'security-checks': securityChecksInput,
  'security-scan': securityScanInput,
  visual: visualInput,
};

/** Every kind's validator: what suites are checked against unless a caller brings its own runners (tests). */
export const validators = Object.fromEntries(
  Object.entries(KIND_SCHEMAS).map(([kind, schema]) => [
    kind,
    {
      kind: kind as TestKind,
      validate(test) {
        parseTestInput(schema, test);
      },
    } satisfies KindValidator,
  ]),
) as Record<TestKind, KindValidator>;
