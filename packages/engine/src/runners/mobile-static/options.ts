import { z } from 'zod';
import { testInput } from '../../lib/options.ts';
import { riskThresholds } from '../../lib/findings.ts';

export const mobileStaticInput = testInput(
  {
    /** Which uploaded build(s) to analyse; `any` takes whatever the client uploaded. */
    platform: z.enum(['android', 'ios', 'any']).default('any'),
    /** Android API levels under these are findings (23: runtime permissions; 33: current store floor). */
    minSdkAtLeast: z.number().int().min(1).default(23),
    targetSdkAtLeast: z.number().int().min(1).default(33),
    /** iOS versions under this are a finding. */
    iosMinimumVersionAtLeast: z.string().regex(/^\d+(\.\d+)*$/, 'must be a version like 15.0').default('15.0'),
  },
  riskThresholds,
);
export type MobileStaticOptions = z.output<typeof mobileStaticInput>['options'];
