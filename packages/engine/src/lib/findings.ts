import { z } from 'zod';
import type { Finding, Risk } from '../types.ts';

export const RISKS: readonly Risk[] = ['High', 'Medium', 'Low', 'Informational'];

export function countByRisk(findings: readonly Finding[]): Record<Risk, number> {
  const counts: Record<Risk, number> = { High: 0, Medium: 0, Low: 0, Informational: 0 };
  for (const f of findings) counts[f.risk]++;
  return counts;
}

/** Thresholds of the kinds that report findings (security scan, mobile static analysis). */
export const riskThresholds = z
  .object({
    /** The run fails when a risk's count is above its maximum; by default any High fails it. */
    maxHigh: z.number().int().min(0).default(0),
    maxMedium: z.number().int().min(0).optional(),
    maxLow: z.number().int().min(0).optional(),
  })
  .strict();

/** The risks whose count is above its maximum: the run passes when there are none. */
export function risksOverThresholds(counts: Record<Risk, number>, thresholds: z.output<typeof riskThresholds>): Risk[] {
  return (['High', 'Medium', 'Low'] as const).filter((risk) => {
    const max = thresholds[`max${risk}`];
    return max !== undefined && counts[risk] > max;
  });
}
