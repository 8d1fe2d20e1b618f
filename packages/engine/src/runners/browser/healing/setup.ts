/**
 * What the runner tells the healing hook in Playwright's workers (hook.ts), and what a worker writes back: one file
 * named by an environment variable, one JSON line per record in a file of its own. The runner parses with these; a
 * worker imports their types only (`import type`): the setup is the runner's own file, and each record is parsed when
 * the runner reads it (attempt.ts), so zod stays out of the workers' hot path.
 */
import { callSite, caseHeal, elementFingerprint, healCandidate, healingMode } from '@fullstop/contracts/healing';
import { z } from 'zod';

export { HEALING_SETUP_ENV } from './setup-env.ts';

export const healingSetup = z
  .object({
    /** The suite folder as the config's `testDir`: call sites are relative to it. */
    suiteDir: z.string().min(1),
    /** Where workers write their records and heal screenshots. */
    outDir: z.string().min(1),
    mode: healingMode,
    /** The fingerprints to heal with (already checked by the runner); null: none, nothing heals. */
    fingerprints: z.string().min(1).nullable(),
  })
  .strict();
export type HealingSetup = z.infer<typeof healingSetup>;

/** The test an attempt's record belongs to, as the worker knows it (the runner joins it to Playwright's report). */
export const recordTest = z
  .object({
    id: z.string().min(1).max(200),
    retry: z.number().int().min(0).max(10),
    project: z.string().max(200),
    file: z.string().max(300),
    line: z.number().int().min(0),
    column: z.number().int().min(0),
    title: z.string().min(1).max(600),
  })
  .strict();
export type RecordTest = z.infer<typeof recordTest>;

export const workerRecord = z.discriminatedUnion('type', [
  z.object({ type: z.literal('fingerprint'), test: recordTest, site: callSite, fingerprint: elementFingerprint }).strict(),
  z
    .object({
      type: z.literal('heal'),
      test: recordTest,
      mode: z.enum(['fail', 'pass']),
      heal: caseHeal,
      candidates: z.array(healCandidate).max(3),
      fingerprint: elementFingerprint,
    })
    .strict(),
]);
export type WorkerRecord = z.infer<typeof workerRecord>;
